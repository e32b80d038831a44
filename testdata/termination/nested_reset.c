// termination: false
// The inner loop resets the outer counter.
int main(void) {
    int i, j;
    for (i = 0; i < 10; i++)
        for (j = 0; j < 10; j++)
            if (j == 5)
                i = 0;
    return 0;
}
