/* Tests a small stack-based bytecode VM written in C: arithmetic, jumps, calls, locals; runs several programs. */
#include <stdio.h>
#include <stdint.h>

enum op { PUSH, POP, ADD, SUB, MUL, DIV, MOD, DUP, SWAP, OVER, JMP, JZ, JNZ, LT, EQ,
          LOAD, STORE, CALL, RET, PRINT, HALT };

static const char *op_names[] = {"PUSH", "POP", "ADD", "SUB", "MUL", "DIV", "MOD", "DUP", "SWAP", "OVER",
                                 "JMP", "JZ", "JNZ", "LT", "EQ", "LOAD", "STORE", "CALL", "RET", "PRINT", "HALT"};

struct vm {
    int32_t stack[64];
    int sp;
    int32_t locals[8];
    int rstack[16];
    int rsp;
    long steps;
};

static int run(struct vm *m, const int32_t *code, int trace_limit) {
    int pc = 0;
    m->sp = 0;
    m->rsp = 0;
    m->steps = 0;
    for (;;) {
        int32_t op = code[pc++];
        if (++m->steps > 20000) return -3;
        if (m->steps <= trace_limit) printf("  [%3d] %-5s sp=%d\n", pc - 1, op_names[op], m->sp);
        int32_t a, b;
        switch (op) {
        case PUSH: m->stack[m->sp++] = code[pc++]; break;
        case POP: m->sp--; break;
        case ADD: b = m->stack[--m->sp]; a = m->stack[--m->sp]; m->stack[m->sp++] = (int32_t)((uint32_t)a + (uint32_t)b); break;
        case SUB: b = m->stack[--m->sp]; a = m->stack[--m->sp]; m->stack[m->sp++] = (int32_t)((uint32_t)a - (uint32_t)b); break;
        case MUL: b = m->stack[--m->sp]; a = m->stack[--m->sp]; m->stack[m->sp++] = (int32_t)((uint32_t)a * (uint32_t)b); break;
        case DIV: b = m->stack[--m->sp]; a = m->stack[--m->sp];
            if (b == 0 || (a == INT32_MIN && b == -1)) return -1;
            m->stack[m->sp++] = a / b; break;
        case MOD: b = m->stack[--m->sp]; a = m->stack[--m->sp];
            if (b == 0 || (a == INT32_MIN && b == -1)) return -1;
            m->stack[m->sp++] = a % b; break;
        case DUP: m->stack[m->sp] = m->stack[m->sp - 1]; m->sp++; break;
        case SWAP: a = m->stack[m->sp - 1]; m->stack[m->sp - 1] = m->stack[m->sp - 2]; m->stack[m->sp - 2] = a; break;
        case OVER: m->stack[m->sp] = m->stack[m->sp - 2]; m->sp++; break;
        case JMP: pc = code[pc]; break;
        case JZ: a = m->stack[--m->sp]; pc = a == 0 ? code[pc] : pc + 1; break;
        case JNZ: a = m->stack[--m->sp]; pc = a != 0 ? code[pc] : pc + 1; break;
        case LT: b = m->stack[--m->sp]; a = m->stack[--m->sp]; m->stack[m->sp++] = a < b; break;
        case EQ: b = m->stack[--m->sp]; a = m->stack[--m->sp]; m->stack[m->sp++] = a == b; break;
        case LOAD: m->stack[m->sp++] = m->locals[code[pc++]]; break;
        case STORE: m->locals[code[pc++]] = m->stack[--m->sp]; break;
        case CALL: m->rstack[m->rsp++] = pc + 1; pc = code[pc]; break;
        case RET: pc = m->rstack[--m->rsp]; break;
        case PRINT: printf("  out: %d\n", m->stack[--m->sp]); break;
        case HALT: return m->sp > 0 ? m->stack[m->sp - 1] : 0;
        default: printf("bad op %d\n", op); return -2;
        }
    }
}

/* sum 1..10 */
static const int32_t prog_sum[] = {
    PUSH, 0, STORE, 0, PUSH, 1, STORE, 1,   /* 0: total=0, i=1 */
    LOAD, 1, PUSH, 11, LT, JZ, 31,          /* 8: while i < 11 */
    LOAD, 0, LOAD, 1, ADD, STORE, 0,        /* 15: total += i */
    LOAD, 1, PUSH, 1, ADD, STORE, 1,        /* 22: i++ */
    JMP, 8,                                 /* 29 */
    LOAD, 0, HALT,                          /* 31 */
};

/* factorials 1..10 via a subroutine */
static const int32_t prog_fact[] = {
    PUSH, 1, STORE, 2,                      /* 0: i = 1 */
    LOAD, 2, PUSH, 11, LT, JZ, 25,          /* 4: while i < 11 */
    LOAD, 2, CALL, 26, PRINT,               /* 11: print fact(i) */
    LOAD, 2, PUSH, 1, ADD, STORE, 2,        /* 16: i++ */
    JMP, 4,                                 /* 23 */
    HALT,                                   /* 25 */
    STORE, 3, PUSH, 1, STORE, 4,            /* 26: fact: n=local3, acc=local4 */
    LOAD, 3, JZ, 52,                        /* 32: while n */
    LOAD, 4, LOAD, 3, MUL, STORE, 4,        /* 36: acc *= n */
    LOAD, 3, PUSH, 1, SUB, STORE, 3,        /* 43: n-- */
    JMP, 32,                                /* 50 */
    LOAD, 4, RET,                           /* 52 */
};

/* gcd via modulo loop, with fibonacci printing */
static const int32_t prog_fib[] = {
    PUSH, 0, PUSH, 1,               /* a b */
    PUSH, 15, STORE, 0,             /* count */
    /* 8 */ OVER, PRINT,            /* print a */
    DUP, STORE, 1,                  /* tmp = b */
    ADD,                            /* a+b */
    LOAD, 1, SWAP,                  /* b, a+b */
    LOAD, 0, PUSH, 1, SUB, DUP, STORE, 0,
    JNZ, 8,
    HALT,
};

int main(void) {
    struct vm m = {{0}, 0, {0}, {0}, 0, 0};
    printf("program sum:\n");
    int r = run(&m, prog_sum, 12);
    printf("sum result=%d steps=%ld\n", r, m.steps);

    printf("program fact:\n");
    r = run(&m, prog_fact, 0);
    printf("fact result=%d steps=%ld\n", r, m.steps);

    printf("program fib:\n");
    r = run(&m, prog_fib, 5);
    printf("fib result=%d steps=%ld sp=%d\n", r, m.steps, m.sp);

    int32_t div0[] = {PUSH, 7, PUSH, 0, DIV, HALT};
    printf("div by zero -> %d\n", run(&m, div0, 0));
    int32_t divmin[] = {PUSH, INT32_MIN, PUSH, -1, DIV, HALT};
    printf("INT_MIN/-1 -> %d\n", run(&m, divmin, 0));
    int32_t wrap[] = {PUSH, INT32_MAX, PUSH, 1, ADD, PUSH, -7, PUSH, 2, MOD, ADD, HALT};
    printf("wrapping add -> %d\n", run(&m, wrap, 0));
    int32_t spin[] = {PUSH, 1, JNZ, 0};
    r = run(&m, spin, 0);
    printf("infinite loop -> %d after %ld steps\n", r, m.steps);
    return 0;
}
