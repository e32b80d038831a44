// termination: true
int main(void) {
    int sum = 0;
    for (int i = 0; i < 100; i++)
        sum += i;
    return sum == 4950 ? 0 : 1;
}
