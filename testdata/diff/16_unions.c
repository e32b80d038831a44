/* Tests unions: type punning between same-size integers, byte views, tagged unions. */
#include <stdio.h>
#include <stdint.h>
#include <string.h>

union u32view { uint32_t u; int32_t i; uint8_t b[4]; uint16_t h[2]; };
union u64view { uint64_t u; int64_t i; uint32_t w[2]; uint8_t b[8]; };
union fview { float f; uint32_t u; };
union dview { double d; uint64_t u; };

enum tag { T_INT, T_STR, T_PAIR };
struct value {
    enum tag tag;
    union { long long i; const char *s; struct { short a, b; } pair; } as;
};

static void print_value(const struct value *v) {
    switch (v->tag) {
    case T_INT: printf("int(%lld)\n", v->as.i); break;
    case T_STR: printf("str(\"%s\", len %zu)\n", v->as.s, strlen(v->as.s)); break;
    case T_PAIR: printf("pair(%d,%d)\n", v->as.pair.a, v->as.pair.b); break;
    }
}

int main(void) {
    union u32view v;
    uint32_t tests[] = {0x12345678u, 0xFFFFFFFFu, 0x80000000u, 0x000000FFu};
    for (int t = 0; t < 4; t++) {
        v.u = tests[t];
        printf("u=%08x i=%d b=%02x %02x %02x %02x h=%04x %04x\n", v.u, v.i, v.b[0], v.b[1], v.b[2], v.b[3], v.h[0], v.h[1]);
    }
    v.i = -2;
    printf("i=-2 -> u=%u\n", v.u);
    v.b[3] = 0x7f;
    printf("after b[3]=0x7f u=%08x i=%d\n", v.u, v.i);
    union u64view w;
    w.u = 0x0102030405060708ULL;
    printf("w lo=%08x hi=%08x b0=%d b7=%d\n", w.w[0], w.w[1], w.b[0], w.b[7]);
    w.i = -1;
    printf("w.u=%llx\n", (unsigned long long)w.u);
    w.w[1] = 0;
    printf("w.i after clearing hi = %lld\n", (long long)w.i);
    union fview f;
    float fl[] = {1.0f, -2.0f, 0.5f, 0.0f, 3.25f};
    for (int i = 0; i < 5; i++) {
        f.f = fl[i];
        printf("float bits %08x sign=%u exp=%u mant=%06x\n", f.u, f.u >> 31, (f.u >> 23) & 0xffu, f.u & 0x7fffffu);
    }
    union dview d;
    d.d = 1.0;
    printf("double 1.0 bits %016llx\n", (unsigned long long)d.u);
    d.u = 0x4000000000000000ULL;
    printf("bits 0x4000... as double *100 = %d\n", (int)(d.d * 100));
    struct value vals[4];
    vals[0].tag = T_INT; vals[0].as.i = -9000000000LL;
    vals[1].tag = T_STR; vals[1].as.s = "union string";
    vals[2].tag = T_PAIR; vals[2].as.pair.a = -3; vals[2].as.pair.b = 300;
    vals[3].tag = T_INT; vals[3].as.i = 77;
    for (int i = 0; i < 4; i++) print_value(&vals[i]);
    printf("sizeof u32view=%zu u64view=%zu value=%zu\n", sizeof(union u32view), sizeof(union u64view), sizeof(struct value));
    return 0;
}
