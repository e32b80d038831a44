/* Encoder test: main(argc, argv) gets argc = 1 and the vm's argv. */
void reach_error(void);
int main(int argc, char **argv) { if (argc == 1 && argv[1] == 0) reach_error(); return 0; }
