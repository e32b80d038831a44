/* Tests bit-fields in structs: signed/unsigned fields, wrap on assignment, packing, and updates. */
#include <stdio.h>
#include <stdint.h>

struct flags {
    unsigned int ready : 1;
    unsigned int mode : 3;
    signed int delta : 5;
    unsigned int count : 7;
    unsigned int : 0;
    unsigned int big : 20;
    signed int sbig : 12;
};

struct rgb565 { unsigned short b : 5, g : 6, r : 5; };

struct packet {
    uint8_t version : 4;
    uint8_t ihl : 4;
    uint16_t len;
    unsigned int ttl : 8;
    unsigned int proto : 8;
    unsigned int frag : 13;
    unsigned int df : 1;
};

int main(void) {
    struct flags f = {0};
    f.ready = 1;
    f.mode = 5;
    f.delta = -7;
    f.count = 100;
    f.big = 0xABCDE;
    f.sbig = -1000;
    printf("ready=%u mode=%u delta=%d count=%u big=%x sbig=%d\n", f.ready, f.mode, f.delta, f.count, f.big, f.sbig);
    for (int i = 0; i < 12; i++) {
        f.mode++;
        f.delta = f.delta + 3 > 15 ? -16 : f.delta + 3;
        f.count += 20;
        printf("step %2d mode=%u delta=%3d count=%3u\n", i, f.mode, f.delta, f.count);
    }
    f.big = f.big + 0x60000u;
    printf("big wrap -> %05x\n", f.big);
    unsigned vals[] = {0u, 7u, 8u, 15u, 16u, 31u, 100u};
    for (int i = 0; i < 7; i++) {
        struct flags g = {0};
        g.mode = vals[i] & 7u;
        g.count = vals[i] & 127u;
        g.delta = (int)(vals[i] & 15u) - 8;
        printf("vals %3u -> mode %u count %3u delta %d\n", vals[i], g.mode, g.count, g.delta);
    }
    struct rgb565 px[4];
    for (int i = 0; i < 4; i++) {
        px[i].r = (unsigned short)(i * 9);
        px[i].g = (unsigned short)(i * 21);
        px[i].b = (unsigned short)(31 - i * 7);
    }
    for (int i = 0; i < 4; i++) {
        unsigned r8 = (unsigned)px[i].r << 3, g8 = (unsigned)px[i].g << 2, b8 = (unsigned)px[i].b << 3;
        printf("px%d r=%2u g=%2u b=%2u -> #%02x%02x%02x\n", i, px[i].r, px[i].g, px[i].b, r8, g8, b8);
    }
    struct packet pk = {4, 5, 1500, 64, 6, 0, 1};
    printf("packet v%u ihl%u len%u ttl%u proto%u frag%u df%u\n", pk.version, pk.ihl, pk.len, pk.ttl, pk.proto, pk.frag, pk.df);
    for (int hop = 0; hop < 5; hop++) {
        pk.ttl--;
        pk.frag += 1000;
        printf("hop %d ttl=%u frag=%u\n", hop, pk.ttl, pk.frag);
    }
    pk.ttl = 0;
    pk.ttl--;
    printf("ttl wrap %u\n", pk.ttl);
    printf("sizeof flags=%zu rgb565=%zu\n", sizeof(struct flags), sizeof(struct rgb565));
    return 0;
}
