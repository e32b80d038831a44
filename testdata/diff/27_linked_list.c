/* Tests malloc/free with a singly linked list: push, append, reverse, remove, sorted insert, free all. */
#include <stdio.h>
#include <stdlib.h>

struct node { int val; struct node *next; };

static struct node *new_node(int v) {
    struct node *n = malloc(sizeof *n);
    if (!n) { printf("oom\n"); exit(1); }
    n->val = v;
    n->next = NULL;
    return n;
}

static void push(struct node **head, int v) { struct node *n = new_node(v); n->next = *head; *head = n; }

static void append(struct node **head, int v) {
    while (*head) head = &(*head)->next;
    *head = new_node(v);
}

static struct node *reverse(struct node *h) {
    struct node *prev = NULL;
    while (h) { struct node *nx = h->next; h->next = prev; prev = h; h = nx; }
    return prev;
}

static int remove_val(struct node **head, int v) {
    int removed = 0;
    while (*head) {
        if ((*head)->val == v) { struct node *d = *head; *head = d->next; free(d); removed++; }
        else head = &(*head)->next;
    }
    return removed;
}

static void sorted_insert(struct node **head, int v) {
    while (*head && (*head)->val < v) head = &(*head)->next;
    struct node *n = new_node(v);
    n->next = *head;
    *head = n;
}

static void print_list(const char *label, const struct node *h) {
    int len = 0;
    printf("%s:", label);
    for (; h; h = h->next, len++) printf(" %d", h->val);
    printf(" (len %d)\n", len);
}

static void free_list(struct node *h) {
    while (h) { struct node *nx = h->next; free(h); h = nx; }
}

int main(void) {
    struct node *list = NULL;
    for (int i = 0; i < 10; i++) push(&list, i * 3 % 7);
    print_list("pushed", list);
    for (int i = 0; i < 5; i++) append(&list, 100 + i);
    print_list("appended", list);
    list = reverse(list);
    print_list("reversed", list);
    for (int v = 0; v < 7; v += 2) {
        int r = remove_val(&list, v);
        printf("removed %d x%d\n", v, r);
        print_list("now", list);
    }
    struct node *sorted = NULL;
    unsigned s = 42;
    for (int i = 0; i < 20; i++) {
        s = s * 1103515245u + 12345u;
        sorted_insert(&sorted, (int)((s >> 16) % 100));
    }
    print_list("sorted", sorted);
    long sum = 0;
    for (struct node *p = sorted; p; p = p->next) sum += p->val;
    printf("sum=%ld\n", sum);
    free_list(list);
    free_list(sorted);
    printf("freed\n");
    return 0;
}
