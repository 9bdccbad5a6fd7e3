// A cardcli bot in Go: plays any game by picking one of the offered moves at random.
//
// Standard library only, one file, no module needed. Build and run:
//
//	go build -o random_bot random_bot.go
//	./random_bot [--seed N] [--name NAME]
//
// It shows the whole protocol a bot needs (protocol/PROTOCOL.md): answer the handshake,
// then answer every `go` line with one of the moves it lists; ignore everything else.
// The choices come from the bot's own splitmix64 generator, seeded exactly as the C bot
// seeds it, so with the same seed it plays the same moves as bots/c/random_bot.c.
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// golden is 2^64 divided by the golden ratio: splitmix64's increment, and the factor
// that spreads a match's `rng` number over 64 bits.
const golden uint64 = 0x9E3779B97F4A7C15

// rng is splitmix64: tiny, fast, and good enough to pick a move.
type rng struct{ state uint64 }

func (r *rng) next() uint64 {
	r.state += golden
	z := r.state
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

// below returns a uniform integer in [0, n), n >= 1, without modulo bias (rejection sampling).
func (r *rng) below(n int) int {
	bound := uint64(n)
	limit := ^uint64(0) - (^uint64(0)%bound+1)%bound
	for {
		if x := r.next(); x <= limit {
			return int(x % bound)
		}
	}
}

// parseSeed reads an integer, optionally negative; like every bot here it keeps the low
// 64 bits, so any integer text is a seed (a negative one as two's complement).
func parseSeed(text string) (uint64, bool) {
	digits := strings.TrimPrefix(text, "-")
	if digits == "" {
		return 0, false
	}
	var seed uint64
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, false
		}
		seed = seed*10 + uint64(c-'0')
	}
	if len(digits) < len(text) {
		seed = -seed
	}
	return seed, true
}

func usage(out io.Writer) {
	fmt.Fprintln(out, "usage: random_bot [--seed N] [--name NAME]")
}

// send writes one line. os.Stdout is not buffered in Go: each call is one write, so the
// referee receives the line at once.
func send(line string) {
	if _, err := fmt.Fprintln(os.Stdout, line); err != nil {
		os.Exit(0) // the referee has gone: nobody is left to answer
	}
}

func main() {
	name := "go-random"
	seed := uint64(time.Now().UnixNano()) ^ uint64(os.Getpid())<<32
	args := os.Args[1:]
	for i := 0; i < len(args); i++ {
		arg := args[i]
		seedText, isSeed := "", false
		switch {
		case arg == "--seed" && i+1 < len(args):
			i++
			seedText, isSeed = args[i], true
		case strings.HasPrefix(arg, "--seed="):
			seedText, isSeed = strings.TrimPrefix(arg, "--seed="), true
		case arg == "--name" && i+1 < len(args):
			i++
			name = args[i]
		case arg == "--help" || arg == "-h":
			usage(os.Stdout)
			return
		default:
			fmt.Fprintf(os.Stderr, "random_bot: unknown argument %s\n", arg)
			usage(os.Stderr)
			os.Exit(2)
		}
		if isSeed {
			var ok bool
			if seed, ok = parseSeed(seedText); !ok {
				fmt.Fprintf(os.Stderr, "random_bot: bad seed %s\n", seedText)
				os.Exit(2)
			}
		}
	}
	r := rng{state: seed}

	// A bufio.Reader has no line length limit (bufio.Scanner stops at 64 KiB by default),
	// and referee lines can reach 1 MiB.
	in := bufio.NewReader(os.Stdin)
	for {
		line, err := in.ReadString('\n')
		words := strings.Fields(line) // splits on spaces, tabs, CR and LF
		if len(words) > 0 {
			switch words[0] {
			case "cardcli":
				send("id name " + name)
				send("id author cardcli examples")
				send("id version 1.0")
				send("ready")
			case "rng":
				// reseed per match: same seed and same match, same moves, whatever came before
				if len(words) > 1 {
					match, _ := parseSeed(words[1])
					r.state = seed ^ match*golden
				}
			case "go":
				// go <kind> <millis> <move> <move> ...: the list is never empty.
				if len(words) > 3 {
					moves := words[3:]
					send("move " + moves[r.below(len(moves))])
				}
			case "quit":
				return
			}
			// Every other line (game, deal, hand, play, ...) is ignored.
		}
		if err != nil {
			return // end of input: the referee has gone
		}
	}
}
