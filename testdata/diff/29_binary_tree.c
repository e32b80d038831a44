/* Tests a binary search tree: insert, search, in-order/pre-order traversal, height, delete, and freeing all nodes. */
#include <stdio.h>
#include <stdlib.h>

struct tree { int key; int count; struct tree *left, *right; };

static int live_nodes;

static struct tree *insert(struct tree *t, int key) {
    if (!t) {
        t = calloc(1, sizeof *t);
        t->key = key;
        t->count = 1;
        live_nodes++;
        return t;
    }
    if (key < t->key) t->left = insert(t->left, key);
    else if (key > t->key) t->right = insert(t->right, key);
    else t->count++;
    return t;
}

static const struct tree *search(const struct tree *t, int key) {
    while (t && t->key != key) t = key < t->key ? t->left : t->right;
    return t;
}

static int height(const struct tree *t) {
    if (!t) return 0;
    int l = height(t->left), r = height(t->right);
    return 1 + (l > r ? l : r);
}

static void inorder(const struct tree *t) {
    if (!t) return;
    inorder(t->left);
    printf(" %d", t->key);
    if (t->count > 1) printf("x%d", t->count);
    inorder(t->right);
}

static void preorder(const struct tree *t, int depth) {
    if (!t || depth > 3) return;
    for (int i = 0; i < depth; i++) printf("  ");
    printf("%d\n", t->key);
    preorder(t->left, depth + 1);
    preorder(t->right, depth + 1);
}

static struct tree *delete_key(struct tree *t, int key) {
    if (!t) return NULL;
    if (key < t->key) t->left = delete_key(t->left, key);
    else if (key > t->key) t->right = delete_key(t->right, key);
    else {
        if (!t->left || !t->right) {
            struct tree *c = t->left ? t->left : t->right;
            free(t);
            live_nodes--;
            return c;
        }
        struct tree *m = t->right;
        while (m->left) m = m->left;
        t->key = m->key;
        t->count = m->count;
        m->count = 1;
        t->right = delete_key(t->right, m->key);
    }
    return t;
}

static void free_tree(struct tree *t) {
    if (!t) return;
    free_tree(t->left);
    free_tree(t->right);
    free(t);
    live_nodes--;
}

int main(void) {
    struct tree *root = NULL;
    unsigned s = 2024;
    for (int i = 0; i < 60; i++) {
        s = s * 1103515245u + 12345u;
        root = insert(root, (int)((s >> 16) % 200) - 100);
    }
    printf("live=%d height=%d\n", live_nodes, height(root));
    printf("inorder:");
    inorder(root);
    printf("\n");
    preorder(root, 0);
    for (int k = -100; k < 100; k += 23) {
        const struct tree *f = search(root, k);
        printf("search %d: %s", k, f ? "found" : "missing");
        if (f) printf(" count=%d", f->count);
        printf("\n");
    }
    int dels[] = {root->key, -100, 0, 50, 99, root->key};
    for (int i = 0; i < 6; i++) {
        root = delete_key(root, dels[i]);
        printf("after delete %d live=%d height=%d\n", dels[i], live_nodes, height(root));
    }
    printf("inorder:");
    inorder(root);
    printf("\n");
    free_tree(root);
    printf("live after free=%d\n", live_nodes);
    return 0;
}
