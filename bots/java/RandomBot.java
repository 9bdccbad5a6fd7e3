/*
 * A cardcli bot in Java: plays any game by picking one of the offered moves at random.
 *
 * Standard library only (Java 11+), one file, no build tool needed. Build and run:
 *     javac -d . RandomBot.java
 *     java -cp . RandomBot [--seed N] [--name NAME]
 *
 * It shows the whole protocol a bot needs (protocol/PROTOCOL.md): answer the handshake,
 * then answer every `go` line with one of the moves it lists; ignore everything else.
 * The choices come from the bot's own splitmix64 generator (never java.util.Random),
 * seeded exactly as the C bot seeds it, so with the same seed it plays the same moves as
 * bots/c/random_bot.c. Java's long is 64 bits and wraps around, like C's uint64_t; only
 * comparison and remainder need their unsigned forms.
 */

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

public final class RandomBot {
    /** 2^64 divided by the golden ratio: splitmix64's increment, and the factor that
     *  spreads a match's `rng` number over 64 bits. */
    private static final long GOLDEN = 0x9E3779B97F4A7C15L;

    /** splitmix64's state: tiny, fast, and good enough to pick a move. */
    private long state;

    private RandomBot(long seed) {
        state = seed;
    }

    private long next() {
        state += GOLDEN;
        long z = state;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** A uniform integer in [0, n), n >= 1, without modulo bias (rejection sampling). */
    private int below(int n) {
        long bound = n;
        long limit = -1L - (Long.remainderUnsigned(-1L, bound) + 1) % bound; // -1L is 2^64 - 1
        long x;
        do {
            x = next();
        } while (Long.compareUnsigned(x, limit) > 0);
        return (int) Long.remainderUnsigned(x, bound);
    }

    /** Reads an integer, optionally negative; like every bot here it keeps the low 64 bits,
     *  so any integer text is a seed (a negative one as two's complement). Null if not one. */
    private static Long parseSeed(String text) {
        boolean negative = text.startsWith("-");
        String digits = negative ? text.substring(1) : text;
        if (digits.isEmpty()) {
            return null;
        }
        long value = 0;
        for (int i = 0; i < digits.length(); i++) {
            char c = digits.charAt(i);
            if (c < '0' || c > '9') {
                return null;
            }
            value = value * 10 + (c - '0');
        }
        return negative ? -value : value;
    }

    private static void usage(PrintStream out) {
        out.println("usage: java -cp DIR RandomBot [--seed N] [--name NAME]");
    }

    private static void fail(String message) {
        System.err.println("RandomBot: " + message);
        usage(System.err);
        System.exit(2);
    }

    /** Writes one line and flushes it: the referee waits for every line we write. If the
     *  referee has gone, nobody is left to answer: exit. */
    private static void send(PrintStream out, String line) {
        out.print(line + "\n");
        out.flush();
        if (out.checkError()) {
            System.exit(0);
        }
    }

    public static void main(String[] args) throws IOException {
        String name = "java-random";
        Long seed = null;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            String seedText;
            if (arg.equals("--seed") && i + 1 < args.length) {
                seedText = args[++i];
            } else if (arg.startsWith("--seed=")) {
                seedText = arg.substring("--seed=".length());
            } else if (arg.equals("--name") && i + 1 < args.length) {
                name = args[++i];
                continue;
            } else if (arg.equals("--help") || arg.equals("-h")) {
                usage(System.out);
                return;
            } else {
                fail("unknown argument " + arg);
                return;
            }
            seed = parseSeed(seedText);
            if (seed == null) {
                fail("bad seed " + seedText);
                return;
            }
        }
        long baseSeed = seed != null ? seed : System.nanoTime() ^ (ProcessHandle.current().pid() << 32);
        RandomBot rng = new RandomBot(baseSeed);

        // Protocol lines are ASCII; ISO-8859-1 maps every byte to one char and back, so a
        // move is sent back exactly as it came. readLine has no length limit (referee lines
        // can reach 1 MiB).
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.ISO_8859_1));
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.ISO_8859_1);
        String line;
        while ((line = in.readLine()) != null) {
            String trimmed = line.trim();
            if (trimmed.isEmpty()) {
                continue;
            }
            String[] words = trimmed.split("\\s+");
            switch (words[0]) {
                case "cardcli":
                    send(out, "id name " + name);
                    send(out, "id author cardcli examples");
                    send(out, "id version 1.0");
                    send(out, "ready");
                    break;
                case "rng":
                    // reseed per match: same seed and same match, same moves, whatever came before
                    if (words.length > 1) {
                        Long number = parseSeed(words[1]);
                        rng.state = baseSeed ^ ((number != null ? number : 0L) * GOLDEN);
                    }
                    break;
                case "go":
                    // go <kind> <millis> <move> <move> ...: the list is never empty.
                    if (words.length > 3) {
                        send(out, "move " + words[3 + rng.below(words.length - 3)]);
                    }
                    break;
                case "quit":
                    return;
                default:
                    // Every other line (game, deal, hand, play, ...) is ignored.
                    break;
            }
        }
    }
}
