// termination: false
int main(void) {
    int i = 0;
    while (i < 10) {
        i++;
        if (i == 5)
            i = 0;
    }
    return 0;
}
