/*
 * A cardcli bot in C: plays any game by picking one of the offered moves at random.
 *
 * C99 plus two POSIX calls (getline, getpid). Build and run:
 *     cc -O2 -o random_bot random_bot.c
 *     ./random_bot [--seed N] [--name NAME]
 *
 * It shows the whole protocol a bot needs (protocol/PROTOCOL.md): answer the handshake,
 * then answer every `go` line with one of the moves it lists; ignore everything else.
 * With --seed the choices come from the bot's own PRNG (splitmix64), never from libc's
 * rand(), so the same seed plays the same moves on every machine.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* splitmix64: tiny, fast, and good enough to pick a move. */
static uint64_t rng_state;

static uint64_t rng_next(void)
{
    uint64_t z = (rng_state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* A uniform integer in [0, n), n >= 1, without modulo bias (rejection sampling). */
static size_t rng_below(size_t n)
{
    uint64_t bound = (uint64_t)n;
    uint64_t limit = UINT64_MAX - (UINT64_MAX % bound + 1) % bound;
    uint64_t r;
    do {
        r = rng_next();
    } while (r > limit);
    return (size_t)(r % bound);
}

static void usage(FILE *out)
{
    fputs("usage: random_bot [--seed N] [--name NAME]\n", out);
}

/* Parse a seed: any integer text; out-of-range values are still reproducible. */
static int parse_seed(const char *text, uint64_t *seed)
{
    char *end;
    if (*text == '\0')
        return 0;
    if (*text == '-') {
        long long v = strtoll(text, &end, 10);
        *seed = (uint64_t)v;
    } else {
        *seed = (uint64_t)strtoull(text, &end, 10);
    }
    return *end == '\0';
}

/* Send one line and flush it: the referee waits for every line we write. */
static void send_line(const char *first, const char *second)
{
    if (second != NULL)
        printf("%s %s\n", first, second);
    else
        printf("%s\n", first);
    fflush(stdout);
}

int main(int argc, char **argv)
{
    const char *name = "c-random";
    uint64_t seed = 0;
    int seeded = 0;
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    char **words = NULL;
    size_t words_cap = 0;
    int i;

    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
            if (!parse_seed(argv[++i], &seed)) {
                fprintf(stderr, "random_bot: bad seed %s\n", argv[i]);
                return 2;
            }
            seeded = 1;
        } else if (strncmp(argv[i], "--seed=", 7) == 0) {
            if (!parse_seed(argv[i] + 7, &seed)) {
                fprintf(stderr, "random_bot: bad seed %s\n", argv[i] + 7);
                return 2;
            }
            seeded = 1;
        } else if (strcmp(argv[i], "--name") == 0 && i + 1 < argc) {
            name = argv[++i];
        } else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return 0;
        } else {
            fprintf(stderr, "random_bot: unknown argument %s\n", argv[i]);
            usage(stderr);
            return 2;
        }
    }
    if (!seeded)
        seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32) ^ (uint64_t)clock();
    rng_state = seed;

    /* getline grows the buffer as needed: referee lines can reach 1 MiB. */
    while ((len = getline(&line, &cap, stdin)) != -1) {
        size_t n = 0;
        char *p = line;

        /* Split on spaces (and tabs, CR, LF) in place. */
        for (;;) {
            while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
                p++;
            if (*p == '\0')
                break;
            if (n == words_cap) {
                size_t grown = words_cap ? words_cap * 2 : 64;
                char **w = realloc(words, grown * sizeof *w);
                if (w == NULL) {
                    fputs("random_bot: out of memory\n", stderr);
                    return 1;
                }
                words = w;
                words_cap = grown;
            }
            words[n++] = p;
            while (*p != '\0' && *p != ' ' && *p != '\t' && *p != '\r' && *p != '\n')
                p++;
            if (*p != '\0')
                *p++ = '\0';
        }
        if (n == 0)
            continue;

        if (strcmp(words[0], "cardcli") == 0) {
            send_line("id name", name);
            send_line("id author cardcli examples", NULL);
            send_line("id version 1.0", NULL);
            send_line("ready", NULL);
        } else if (strcmp(words[0], "rng") == 0 && n > 1) {
            /* reseed per match: same seed and same match, same moves, whatever came before */
            rng_state = seed ^ ((uint64_t)strtoull(words[1], NULL, 10) * 0x9E3779B97F4A7C15ULL);
        } else if (strcmp(words[0], "go") == 0) {
            /* go <kind> <millis> <move> <move> ...: the list is never empty. */
            if (n > 3)
                send_line("move", words[3 + rng_below(n - 3)]);
        } else if (strcmp(words[0], "quit") == 0) {
            break;
        }
        /* Every other line (game, deal, hand, play, ...) is ignored. */
    }
    free(words);
    free(line);
    return 0;
}
