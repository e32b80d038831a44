// termination: false
int main(void) {
    while (1) {
    }
    return 0;
}
