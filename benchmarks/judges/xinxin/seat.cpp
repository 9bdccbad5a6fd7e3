// A cardcli seat played by Nathan Sturtevant's Hearts program ("xinxin", the player
// OpenSpiel's Hearts is judged against), for judging the house player on international
// Hearts (Peppa with `card_values=international`).
//
// The program is not part of cardcli (it is GPL-3.0); build.sh compiles this file against a
// checkout of https://github.com/nathansttt/hearts. See README.md.
//
// The program's search needs a whole game state, but a seat may only know its own cards.
// So at every decision the seat builds a state from what it knows: its hand, the cards it
// passed and received, and every card played, with the other hands filled at random from the
// cards it has not seen. The program's search never looks at those hands: it draws its own
// worlds from what the seat has seen (its `getiiGameState`), so the filler only has to make
// the state consistent. The seat is the program's player 0; play goes 0, 1, 2, 3.
//
// If the program's legal moves, or its scores of a finished deal, ever differ from the
// referee's, the seat says so on its standard error and exits (the referee records a crash):
// a judge that silently played other rules would measure nothing.

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <iostream>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "Hearts.h"
#include "iiMonteCarlo.h"

namespace {

using hearts::card;

const int kSeats = 4;

// The program reseeds its searches from the clock; these reseed them from the match's `rng`
// line so that a match is played the same way again (up to the search's threads, unused).
class SeededUCT : public hearts::UCT {
public:
	SeededUCT(int runs, double c) : hearts::UCT(runs, c) {}
	void seed(uint32_t s) { rand.srand(s); }
};

class SeededMonteCarlo : public hearts::iiMonteCarlo {
public:
	SeededMonteCarlo(hearts::Algorithm *a, int worlds) : hearts::iiMonteCarlo(a, worlds) {}
	void seed(uint32_t s) { rand.srand(s); }
};

struct Settings {
	int sims = 10000;      // playouts a decision, shared among the worlds
	int worlds = 30;       // worlds sampled a decision
	double c = 0.4;        // UCT's exploration constant
	double epsilon = 0.1;  // playouts' random move rate
};

[[noreturn]] void fail(const std::string &why) {
	std::cerr << "xinxin-seat: " << why << std::endl;
	std::exit(3);
}

card parseCard(const std::string &token) {
	static const std::string ranks = "AKQJT98765432";  // the program's rank order
	static const std::string suits = "SDCH";           // the program's suit order
	if (token.size() != 2)
		fail("not a card: " + token);
	size_t rank = ranks.find(token[0]), suit = suits.find(token[1]);
	if (rank == std::string::npos || suit == std::string::npos)
		fail("not a card: " + token);
	return hearts::Deck::getcard(int(suit), int(rank));
}

std::vector<std::string> words(const std::string &line) {
	std::istringstream in(line);
	std::vector<std::string> out;
	for (std::string w; in >> w;)
		out.push_back(w);
	return out;
}

std::vector<card> cardsOf(const std::vector<std::string> &w, size_t from) {
	std::vector<card> out;
	for (size_t i = from; i < w.size(); i++)
		out.push_back(parseCard(w[i]));
	return out;
}

class Seat {
public:
	explicit Seat(Settings s) : settings(s) {}

	// One protocol line; false when the session is over.
	bool handle(const std::string &line) {
		std::vector<std::string> w = words(line);
		if (w.empty())
			return true;
		const std::string &head = w[0];
		if (head == "cardcli") {
			say("id name xinxin");
			say("id author Nathan Sturtevant (seat by cardcli)");
			say("ready");
		} else if (head == "game") {
			if (w.size() < 5 || w[1] != "peppa" || w[3] != "4")
				fail("plays only 4-seat peppa, not: " + line);
			me = std::atoi(w[4].c_str());
			options.clear();
			ccw = false;
		} else if (head == "option" && w.size() >= 3) {
			options[w[1]] = w[2];
		} else if (head == "order" && w.size() >= 2) {
			ccw = w[1] == "ccw";
		} else if (head == "rng" && w.size() >= 2) {
			seed = uint32_t(std::strtoul(w[1].c_str(), nullptr, 10));
		} else if (head == "begin") {
			begin();
		} else if (head == "deal" && w.size() >= 3) {
			dealer = std::atoi(w[2].c_str());
			hand.clear(); passedCards.clear(); receivedCards.clear(); plays.clear();
			passOffset = 0;
		} else if (head == "hand") {
			hand = cardsOf(w, 1);
		} else if (head == "passing" && w.size() >= 2) {
			static const std::map<std::string, int> offsets = {
				{"left", 1}, {"right", -1}, {"across", 2}, {"hold", 0}};
			auto it = offsets.find(w[1]);
			if (it == offsets.end())
				fail("unknown pass direction: " + w[1]);
			passOffset = it->second;
		} else if (head == "passed") {
			passedCards = cardsOf(w, 2);
		} else if (head == "received") {
			receivedCards = cardsOf(w, 2);
		} else if (head == "play" && w.size() >= 3) {
			plays.push_back({index(std::atoi(w[1].c_str())), parseCard(w[2])});
		} else if (head == "score" && w.size() == 2 + kSeats) {
			checkScores(w);
		} else if (head == "go" && w.size() >= 4) {
			std::vector<std::string> offered(w.begin() + 3, w.end());
			if (offered.size() == 1) {  // the program would search a forced move, at times for seconds
				say("move " + offered[0]);
				return true;
			}
			std::clock_t start = std::clock();
			std::string move = w[1] == "pass" ? choosePass(offered) : choosePlay(offered);
			cpuMs.push_back(1000.0 * double(std::clock() - start) / CLOCKS_PER_SEC);
			say("move " + move);
		} else if (head == "quit") {
			return false;
		}
		return true;
	}

	// The processor time of its decisions with a choice, on standard error: what "equal time
	// per move" means for the player measured against it.
	void report() const {
		if (cpuMs.empty())
			return;
		std::vector<double> t(cpuMs);
		std::sort(t.begin(), t.end());
		double sum = 0;
		for (double x : t)
			sum += x;
		std::fprintf(stderr, "xinxin-seat: %zu decisions, processor ms: mean %.1f p99 %.1f max %.1f\n",
		             t.size(), sum / double(t.size()), t[size_t(0.99 * double(t.size() - 1))], t.back());
	}

private:
	Settings settings;
	int me = 0, dealer = 0, passOffset = 0;
	bool ccw = false;
	uint32_t seed = 1;
	std::map<std::string, std::string> options;
	std::vector<card> hand, passedCards, receivedCards;
	std::vector<std::pair<int, card>> plays;  // (program's player, card), in order
	// The state owns its players (and deletes them with itself); the players' searches are
	// kept here, as the program's own games keep them.
	std::unique_ptr<hearts::HeartsGameState> state;
	std::vector<std::unique_ptr<hearts::HeartsPlayout>> playouts;
	std::vector<std::unique_ptr<SeededUCT>> trees;
	std::vector<std::unique_ptr<SeededMonteCarlo>> searches;
	int rules = 0;
	std::vector<double> cpuMs;

	static void say(const std::string &line) { std::cout << line << std::endl; }

	// The program's player for a cardcli seat: this seat is 0, and play goes up.
	int index(int seat) const {
		int d = ccw ? me - seat : seat - me;
		return ((d % kSeats) + kSeats) % kSeats;
	}

	// The program's pass direction: the player a pass goes to, minus the passer.
	int passDir() const {
		int d = ccw ? -passOffset : passOffset;
		return d == -2 ? 2 : d;
	}

	std::string option(const std::string &name) const {
		auto it = options.find(name);
		return it == options.end() ? "" : it->second;
	}

	void require(const std::string &name, const std::string &value) const {
		if (option(name) != value)
			fail("needs -o " + name + "=" + value + " (the rules the program plays), got '" + option(name) + "'");
	}

	void begin() {
		require("card_values", "international");
		require("cappotto", "all_penalty_cards");
		rules = hearts::kQueenPenalty | hearts::kDoPassCards;
		if (option("two_of_clubs_leads") == "true")
			rules |= hearts::kLead2Clubs;
		if (option("no_points_first_trick") == "true")
			rules |= hearts::kNoHeartsFirstTrick | hearts::kNoQueenFirstTrick;
		if (option("hearts_must_be_broken") == "true") {
			rules |= hearts::kMustBreakHearts;
			if (option("queen_breaks_hearts") == "true")
				rules |= hearts::kQueenBreaksHearts;
		} else if (option("queen_breaks_hearts") == "true") {
			fail("queen_breaks_hearts without hearts_must_be_broken");
		}
		// A new state and new players every match, seeded from its rng line.
		state.reset();
		searches.clear();
		trees.clear();
		playouts.clear();
		srandom(seed);
		state.reset(new hearts::HeartsGameState(int(seed % 1000000007)));
		state->setRules(rules);
		state->deletePlayers();
		for (int p = 0; p < kSeats; p++) {
			playouts.emplace_back(new hearts::HeartsPlayout());
			trees.emplace_back(new SeededUCT(std::max(1, settings.sims / settings.worlds), settings.c));
			trees.back()->setPlayoutModule(playouts.back().get());
			trees.back()->setEpsilonPlayout(settings.epsilon);
			trees.back()->seed(seed * 4 + uint32_t(p) + 1);
			searches.emplace_back(new SeededMonteCarlo(trees.back().get(), settings.worlds));
			searches.back()->setUseThreads(false);
			searches.back()->seed(seed * 4 + uint32_t(p) + 2);
			hearts::SafeSimpleHeartsPlayer *player = new hearts::SafeSimpleHeartsPlayer(searches.back().get());
			player->setModelLevel(2);
			state->addPlayer(player);
			player->setGameState(state.get());
		}
	}

	// A deal the seat could be in: its own cards, the passes it knows, every card played, and
	// the rest of the deck shared at random among the others.
	void rebuild() {
		const int dir = passDir();
		std::vector<std::set<card>> after(kSeats);  // each player's hand after the pass
		std::set<card> mine(hand.begin(), hand.end());
		for (card c : passedCards)
			mine.erase(c);
		mine.insert(receivedCards.begin(), receivedCards.end());
		after[0] = mine;
		std::set<card> placed(mine);
		for (auto &p : plays)
			if (p.first != 0) {
				after[p.first].insert(p.second);
				placed.insert(p.second);
			}
		if (dir != 0 && !passedCards.empty())
			for (card c : passedCards) {
				after[dir < 0 ? kSeats + dir : dir].insert(c);
				placed.insert(c);
			}
		std::vector<card> rest;
		for (int s = 0; s < 4; s++)
			for (int r = 0; r < 13; r++) {
				card c = hearts::Deck::getcard(s, r);
				if (!placed.count(c))
					rest.push_back(c);
			}
		std::mt19937 shuffle(seed ^ uint32_t(plays.size() * 7919));
		std::shuffle(rest.begin(), rest.end(), shuffle);
		for (int p = 1; p < kSeats; p++)
			while (after[p].size() < 13) {
				if (rest.empty())
					fail("the cards seen do not make a deal");
				after[p].insert(rest.back());
				rest.pop_back();
			}
		// Once passed, each player's pass: this seat's own, the one it received, and for the
		// others any three cards their receiver holds.
		const bool passed = dir != 0 && !passedCards.empty();
		std::vector<std::vector<card>> passes(kSeats);
		if (passed) {
			auto to = [&](int p) { return ((p + dir) % kSeats + kSeats) % kSeats; };
			std::vector<std::vector<card>> received(kSeats);
			received[0] = receivedCards;
			if (!passedCards.empty())
				received[to(0)] = passedCards;
			for (int p = 1; p < kSeats; p++)
				if (received[p].empty())
					received[p].assign(after[p].begin(), std::next(after[p].begin(), 3));
			for (int p = 0; p < kSeats; p++)
				passes[p] = received[to(p)];
		}
		std::vector<std::vector<card>> before(kSeats);
		for (int p = 0; p < kSeats; p++) {
			std::set<card> h(after[p]);
			if (passed) {
				int from = ((p - dir) % kSeats + kSeats) % kSeats;
				for (card c : passes[from])
					h.erase(c);
				h.insert(passes[p].begin(), passes[p].end());
			}
			before[p].assign(h.begin(), h.end());
		}
		if (!passed)
			before[0] = hand;

		state->Reset();
		state->SetInitialCards(before);
		state->setRules(rules);
		state->setPassDir(dir);
		int leader = ((dealer - 1) % kSeats + kSeats) % kSeats;  // the dealer's right
		state->setFirstPlayer(index(leader));
		if (passed)
			for (int p = 0; p < kSeats; p++)
				for (card c : passes[p])
					apply(p, c);
		for (auto &p : plays)
			apply(p.first, p.second);
	}

	void apply(int player, card c) {
		if (state->getNextPlayerNum() != player)
			fail("the program expected another player to move");
		hearts::Move *move = new hearts::CardMove(c, player);
		state->ApplyMove(move);
		state->freeMove(move);
	}

	std::set<card> programMoves() {
		std::set<card> out;
		hearts::Move *all = state->getAllMoves();
		for (hearts::Move *m = all; m; m = m->next)
			out.insert(static_cast<hearts::CardMove *>(m)->c);
		state->freeMove(all);
		return out;
	}

	card search() {
		hearts::CardMove *move = static_cast<hearts::CardMove *>(state->getPlayer(0)->Play());
		card c = move->c;
		state->freeMove(move);
		return c;
	}

	// The deal over, the program scores it from the same cards: its scores must be the
	// referee's, moon shots included, or the judge plays another game.
	void checkScores(const std::vector<std::string> &w) {
		rebuild();
		for (int seat = 0; seat < kSeats; seat++) {
			double theirs = state->score(index(seat));
			if (!state->Done() || theirs != std::atof(w[2 + size_t(seat)].c_str()))
				fail("the program scores deal " + w[1] + " otherwise: seat " + std::to_string(seat) + " " +
				     std::to_string(theirs) + ", the referee " + w[2 + size_t(seat)]);
		}
	}

	std::string choosePlay(const std::vector<std::string> &offered) {
		rebuild();
		std::set<card> ours;
		for (const std::string &t : offered)
			ours.insert(parseCard(t));
		if (ours != programMoves())
			fail("the program's legal moves differ from the referee's at trick " +
			     std::to_string(plays.size() / kSeats + 1));
		card c = search();
		for (const std::string &t : offered)
			if (parseCard(t) == c)
				return t;
		fail("the program chose a card it was not offered");
	}

	std::string choosePass(const std::vector<std::string> &offered) {
		rebuild();
		std::set<card> chosen;
		for (int k = 0; k < 3; k++) {
			card c = search();
			apply(0, c);
			chosen.insert(c);
		}
		for (const std::string &t : offered) {
			std::set<card> cards;
			std::string part;
			std::istringstream in(t);
			while (std::getline(in, part, '+'))
				cards.insert(parseCard(part));
			if (cards == chosen)
				return t;
		}
		fail("the program's pass was not offered");
	}
};

Settings parse(int argc, char **argv) {
	Settings s;
	for (int i = 1; i < argc; i++) {
		std::string a = argv[i];
		if (i + 1 >= argc)
			fail("usage: xinxin-seat [--sims N] [--worlds N] [--c X] [--epsilon X]");
		std::string v = argv[++i];
		if (a == "--sims") s.sims = std::atoi(v.c_str());
		else if (a == "--worlds") s.worlds = std::atoi(v.c_str());
		else if (a == "--c") s.c = std::atof(v.c_str());
		else if (a == "--epsilon") s.epsilon = std::atof(v.c_str());
		else fail("unknown argument " + a);
	}
	if (s.sims < 1 || s.worlds < 1)
		fail("--sims and --worlds must be at least 1");
	return s;
}

}  // namespace

int main(int argc, char **argv) {
	Seat seat(parse(argc, argv));
	std::ios::sync_with_stdio(false);
	for (std::string line; std::getline(std::cin, line);)
		if (!seat.handle(line))
			break;
	seat.report();
	return 0;
}
