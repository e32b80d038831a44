/* Encoder test: main(argc) gets argc = 1, as the vm passes it without --arg. */
void reach_error(void);
int main(int argc) { if (argc == 1) reach_error(); return 0; }
