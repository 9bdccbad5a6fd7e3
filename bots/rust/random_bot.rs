//! A cardcli bot in Rust: plays any game by picking one of the offered moves at random.
//!
//! Standard library only, one file, no Cargo needed. Build and run:
//!
//!     rustc -O --edition 2021 -o random_bot random_bot.rs
//!     ./random_bot [--seed N] [--name NAME]
//!
//! It shows the whole protocol a bot needs (protocol/PROTOCOL.md): answer the handshake,
//! then answer every `go` line with one of the moves it lists; ignore everything else.
//! The choices come from the bot's own splitmix64 generator, seeded exactly as the C bot
//! seeds it, so with the same seed it plays the same moves as bots/c/random_bot.c.

use std::env;
use std::io::{self, BufRead, Write};
use std::process;
use std::time::{SystemTime, UNIX_EPOCH};

/// 2^64 divided by the golden ratio: splitmix64's increment, and the factor that spreads a
/// match's `rng` number over 64 bits.
const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// splitmix64: tiny, fast, and good enough to pick a move.
struct Rng {
    state: u64,
}

impl Rng {
    fn next(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GOLDEN);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform integer in [0, n), n >= 1, without modulo bias (rejection sampling).
    fn below(&mut self, n: usize) -> usize {
        let bound = n as u64;
        let limit = u64::MAX - (u64::MAX % bound + 1) % bound;
        loop {
            let x = self.next();
            if x <= limit {
                return (x % bound) as usize;
            }
        }
    }
}

/// Reads an integer, optionally negative; like every bot here it keeps the low 64 bits, so
/// any integer text is a seed (a negative one as two's complement).
fn parse_seed(text: &[u8]) -> Option<u64> {
    let (negative, digits) = match text.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, text),
    };
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let value = digits.iter().fold(0u64, |acc, &d| {
        acc.wrapping_mul(10).wrapping_add(u64::from(d - b'0'))
    });
    Some(if negative {
        value.wrapping_neg()
    } else {
        value
    })
}

fn usage(out: &mut dyn Write) {
    // Nothing sensible to do if even this cannot be written.
    let _ = writeln!(out, "usage: random_bot [--seed N] [--name NAME]");
}

fn fail(message: String) -> ! {
    eprintln!("random_bot: {}", message);
    usage(&mut io::stderr());
    process::exit(2);
}

/// Writes one line and flushes it: the referee waits for every line we write. If the
/// referee has gone, nobody is left to answer: exit.
fn send(out: &mut impl Write, parts: &[&[u8]]) {
    let written = parts
        .iter()
        .try_for_each(|part| out.write_all(part))
        .and_then(|()| out.write_all(b"\n"))
        .and_then(|()| out.flush());
    if written.is_err() {
        process::exit(0);
    }
}

fn main() {
    let mut name = String::from("rust-random");
    let mut seed: Option<u64> = None;
    let mut args = env::args().skip(1);
    while let Some(arg) = args.next() {
        let seed_text = if arg == "--seed" {
            args.next()
                .unwrap_or_else(|| fail(String::from("--seed needs a value")))
        } else if let Some(text) = arg.strip_prefix("--seed=") {
            text.to_string()
        } else if arg == "--name" {
            name = args
                .next()
                .unwrap_or_else(|| fail(String::from("--name needs a value")));
            continue;
        } else if arg == "--help" || arg == "-h" {
            usage(&mut io::stdout());
            return;
        } else {
            fail(format!("unknown argument {}", arg));
        };
        match parse_seed(seed_text.as_bytes()) {
            Some(value) => seed = Some(value),
            None => fail(format!("bad seed {}", seed_text)),
        }
    }
    let seed = seed.unwrap_or_else(|| {
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        nanos ^ (u64::from(process::id()) << 32)
    });
    let mut rng = Rng { state: seed };

    let stdin = io::stdin();
    let mut input = stdin.lock();
    let stdout = io::stdout();
    let mut out = stdout.lock();
    // Lines are read as bytes, of any length (referee lines can reach 1 MiB); the moves
    // are sent back exactly as they came.
    let mut line = Vec::new();
    loop {
        line.clear();
        match input.read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => break, // end of input: the referee has gone
            Ok(_) => {}
        }
        let words: Vec<&[u8]> = line
            .split(|b| b.is_ascii_whitespace())
            .filter(|word| !word.is_empty())
            .collect();
        match words.first().copied() {
            Some(b"cardcli") => {
                send(&mut out, &[b"id name ", name.as_bytes()]);
                send(&mut out, &[b"id author cardcli examples"]);
                send(&mut out, &[b"id version 1.0"]);
                send(&mut out, &[b"ready"]);
            }
            // reseed per match: same seed and same match, same moves, whatever came before
            Some(b"rng") if words.len() > 1 => {
                let number = parse_seed(words[1]).unwrap_or(0);
                rng.state = seed ^ number.wrapping_mul(GOLDEN);
            }
            // go <kind> <millis> <move> <move> ...: the list is never empty.
            Some(b"go") if words.len() > 3 => {
                let moves = &words[3..];
                send(&mut out, &[b"move ", moves[rng.below(moves.len())]]);
            }
            Some(b"quit") => break,
            // Every other line (game, deal, hand, play, ...) is ignored.
            _ => {}
        }
    }
}
