"""The double-dummy search behind :mod:`fivehundred.solver` (compiled with mypyc).

A mutable search state with make/undo moves, searched by null-window
alpha-beta (each search answers "can the maximising seats make the counted
side take at least ``need`` of the remaining tricks?") with a transposition
table of bounds kept at trick boundaries, equivalent-card reduction and move
ordering. It decides no rule itself: what may be played and what a Joker lead
may name come from :func:`fivehundred._engine.play.playable` and
:func:`~fivehundred._engine.play.nameable` (R5.3, R7), the winner of a trick from
:meth:`fivehundred._engine.order.Ctx.winner` (R5.4), and the seat order (sitting-out
partners, R4.2) from the core's ``Hand.nxt``. Nothing here is public API.
"""

from __future__ import annotations

from typing import Final, final

from fivehundred._engine.order import Ctx
from fivehundred._engine.play import misere_lost, nameable, playable, seat_at
from fivehundred._engine.state import (
    GameState,
    hand_block,
    hands_of,
    led_of,
    suits_led_of,
    to_act,
    trick_of,
)

#: A move is ``position * NAMES + named + 1`` (``named`` is -1 or the suit a Joker lead names).
NAMES: Final = 5


def _order_of(ctx: Ctx, size: int) -> list[list[int]]:
    """Each effective suit's positions, weakest first (by the context's power)."""
    out: list[list[int]] = []
    for suit in range(4):
        mask = ctx.suit_masks[suit]
        cards = [pos for pos in range(size) if (mask >> pos) & 1]
        cards.sort(key=ctx.power.__getitem__)
        out.append(cards)
    return out


#: By context: for each led suit (index ``led + 1``), each card's list of the cards
#: that beat it when it is winning the trick (as masks), filled in on first use.
_OVER: Final[dict[Ctx, list[list[int]]]] = {}


def _over(ctx: Ctx, size: int, led: int) -> list[int]:
    """For each card, the mask of the cards that take the trick from it when it is
    winning a trick led in ``led`` (asked of :meth:`Ctx.winner`, R5.4; cached)."""
    tables = _OVER.get(ctx)
    if tables is None:
        tables = _OVER[ctx] = [[], [], [], [], []]
    table = tables[led + 1]
    if not table:
        pair = [0, 0]
        for card in range(size):
            mask = 0
            pair[0] = card
            for other in range(size):
                pair[1] = other
                if other != card and ctx.winner(pair, led) == 1:
                    mask |= 1 << other
            table.append(mask)
    return table


def _by_power(cards: list[int], power: tuple[int, ...], reverse: bool) -> None:
    """Sort a few cards in place by power (insertion sort: no key function)."""
    for i in range(1, len(cards)):
        card = cards[i]
        value = power[card]
        j = i - 1
        while j >= 0 and (power[cards[j]] < value if reverse else power[cards[j]] > value):
            cards[j + 1] = cards[j]
            j -= 1
        cards[j + 1] = card


@final
class Search:
    """One card-play position, searched in place (make and undo)."""

    def __init__(
        self,
        state: GameState,
        counted: int,
        maximisers: int,
    ) -> None:
        """``counted``: seat mask of the side whose tricks are counted; ``maximisers``:
        the seats that want that count high (everyone else wants it low)."""
        h = hand_block(state)  # ctx, nxt, active, misere, ends_early, contractor, t
        ctx = h.ctx
        assert ctx is not None
        t = h.t
        self.ctx: Ctx = ctx
        #: The table's position of each card index (a card's place in its deck).
        self.pos_of: tuple[int, ...] = t.pos_of
        self.nxt: tuple[int, ...] = h.nxt
        self.active: int = h.active
        self.misere: bool = h.misere
        self.ends_early: bool = h.ends_early
        self.contractor: int = h.contractor
        self.lead_last: bool = t.lead_last
        self.name_any: bool = t.name_any
        self.counted = counted
        self.maximisers = maximisers
        self.hands: list[int] = list(hands_of(state))
        self.size: int = t.size
        #: The seat holding each card (cards never change hands; read only for live cards).
        owner = [-1] * t.size
        for seat, hand in enumerate(self.hands):
            for pos in range(t.size):
                if (hand >> pos) & 1:
                    owner[pos] = seat
        self.owner: list[int] = owner
        pairs = trick_of(state)
        self.trick: list[int] = [pos for _, pos in pairs]
        self.leader: int = pairs[0][0] if pairs else to_act(state)
        self.led: int = led_of(state)
        #: The cards that take the trick from each card, for the suit led (see _over).
        self.over: list[int] = _over(ctx, t.size, self.led) if self.trick else []
        #: After each card of the trick, the place in it of the card winning so far.
        self.wins: list[int] = [
            ctx.winner(self.trick[: k + 1], self.led) for k in range(len(self.trick))
        ]
        self.suits_led: int = suits_led_of(state)  # the suits led so far (R7.4)
        self.to_act: int = to_act(state)
        self.order: list[list[int]] = _order_of(ctx, t.size)
        self.joker_bit: int = ctx.joker_bit
        live = 0
        for hand in self.hands:
            live |= hand
        for pos in self.trick:
            live |= 1 << pos
        #: Every card still in play: in a hand or on the table.
        self.live: int = live
        self.tt: dict[tuple[int, int, int, int, int, int], int] = {}
        #: Positions searched so far (calls of :meth:`ge`).
        self.nodes: int = 0
        #: The most positions to search: once reached, :attr:`stopped` is set and every
        #: search in progress unwinds; its answers are then meaningless.
        self.limit: int = 1 << 62
        self.stopped: bool = False
        #: The best lead found at each boundary key (tried first next time).
        self.best: dict[int, int] = {}
        #: A hash of the trick boundary the search is inside (for the best moves; a
        #: collision only changes the order moves are tried in).
        self.bkey: int = 0
        #: Whether the quick-trick bounds apply: everyone plays for its own side's
        #: tricks (not a misère counted for its contractor) and every trick is played.
        self.quick: bool = counted == maximisers and not self.ends_early
        #: By effective suit: the cards of other suits that beat a card of it when
        #: the holder cannot follow (asked of the trick winner, R5.4).
        beat: list[int] = []
        for suit in range(4):
            cards = self.order[suit]
            mask = 0
            if cards:
                lead = cards[-1]
                for pos in range(t.size):
                    if ctx.suits[pos] != suit and ctx.winner([lead, pos], suit) == 1:
                        mask |= 1 << pos
            beat.append(mask)
        self.beat: list[int] = beat
        #: The boss of the whole pack: the card that wins every trick it is played
        #: to (the top trump, the free Joker), by power, with the trump mask.
        self.bosses: list[int] = sorted(
            [pos for pos in range(t.size) if (ctx.trump_mask >> pos) & 1],
            key=ctx.power.__getitem__,
            reverse=True,
        )

    # -- moves ------------------------------------------------------------------

    def moves(self, seat: int) -> list[int]:
        """The distinct moves of ``seat`` (touching cards once), best-looking first."""
        ctx = self.ctx
        hand = self.hands[seat]
        trick = self.trick
        leading = not trick
        mask = playable(
            ctx,
            hand,
            leading,
            self.led,
            self.suits_led,
            self.misere,
            self.lead_last,
            self.name_any,
        )
        live = self.live
        cards: list[int] = []
        cash: list[int] = []  # at a lead: each suit's top run, if it is this seat's
        for suit in range(4):
            if not mask & ctx.suit_masks[suit]:
                continue
            run = False
            for pos in self.order[suit]:
                if not (live >> pos) & 1:
                    continue
                if (mask >> pos) & 1:
                    if not run:
                        cards.append(pos)
                    run = True
                else:
                    run = False
            if leading and run:
                cash.append(cards.pop())
        out: list[int] = []
        jb = self.joker_bit
        free = mask & jb and ctx.suits[ctx.joker] < 0
        if free:
            names = nameable(ctx, hand, leading, self.suits_led, self.name_any)
            if names >= 0:
                for suit in range(4):
                    if (names >> suit) & 1:
                        out.append(ctx.joker * NAMES + suit + 1)
            else:
                out.append(ctx.joker * NAMES)
        power = ctx.power
        if leading:
            _by_power(cards, power, False)
            _by_power(cash, power, True)
            for pos in cash:
                out.append(pos * NAMES)
            for pos in cards:
                out.append(pos * NAMES)
            return out
        # following: is the trick going the way this seat wants?
        at = self.wins[-1]
        winner = seat_at(self.nxt, self.leader, at)
        wants = (self.maximisers >> seat) & 1
        good = ((self.counted >> winner) & 1) == wants
        _by_power(cards, power, False)
        if good:
            moves = [pos * NAMES for pos in cards]
            moves.extend(out)
            return moves
        over = self.over[trick[at]]
        for pos in cards:  # the cheapest card that takes the trick first
            if (over >> pos) & 1:
                out.append(pos * NAMES)
        for pos in cards:
            if not (over >> pos) & 1:
                out.append(pos * NAMES)
        return out

    # -- the search -------------------------------------------------------------

    def ge(self, seat: int, need: int) -> bool:
        """Can the maximisers make the counted side take ``need`` more tricks (this one
        included)? ``seat`` is to act."""
        if self.nodes >= self.limit:
            self.stopped = True
            return False
        self.nodes += 1
        trick = self.trick
        key: tuple[int, int, int, int, int, int] | None = None
        found: int | None = None
        if not trick:
            if need <= 0:
                return True
            remaining = self.hands[seat].bit_count()
            if need > remaining:
                return False
            key = self._key(seat)
            found = self.tt.get(key)
            if found is not None:
                if (found & 255) >= need:
                    return True
                if (found >> 8) < need:
                    return False
            if self.quick:
                ours = (self.counted >> seat) & 1 == 1
                sure = self._sure(seat)
                if ours and sure >= need:
                    return True
                if not ours and remaining - sure < need:
                    return False
                boss = self._boss()
                if boss >= 0:
                    if (self.counted >> boss) & 1:
                        if need <= 1:
                            return True
                    elif need > remaining - 1:
                        return False
        maximising = (self.maximisers >> seat) & 1 == 1
        result = not maximising
        moves = self.moves(seat)
        bkey = self.bkey if key is None else hash(key) & 0xFFFFFFF
        killer = bkey
        for pos in trick:
            killer = killer * 64 + pos + 1
        killer &= 0x3FFFFFFFFFFFFFFF
        first = self.best.get(killer, -1)
        if first >= 0 and first != moves[0] and first in moves:
            moves.remove(first)
            moves.insert(0, first)
        for move in moves:
            self.bkey = bkey
            found_it = self._try(seat, move, need)
            if self.stopped:  # the node limit: unwind, storing nothing
                return result
            if found_it == maximising:
                result = maximising
                self.best[killer] = move
                break
        self.bkey = bkey
        if key is not None:  # (deeper positions hold fewer cards: the entry is as read)
            lo = 0 if found is None else found & 255
            hi = 255 if found is None else found >> 8
            if result:
                lo = max(lo, need)
            else:
                hi = min(hi, need - 1)
            self.tt[key] = lo | (hi << 8)
        return result

    def _boss(self) -> int:
        """The holder of the live card that wins any trick it is played to, or -1."""
        live = self.live
        for pos in self.bosses:
            if (live >> pos) & 1:
                return self.owner[pos]
        return -1

    def _sure(self, seat: int) -> int:
        """Tricks the leader ``seat`` can cash from the top whatever the others hold:
        in each suit, its cards above every other live card of the suit, counted when
        no other seat can beat them when void (and, for one suit, while every seat
        that could beat them must still follow)."""
        ctx = self.ctx
        hands = self.hands
        hand = hands[seat]
        live = self.live
        mask = playable(
            ctx, hand, True, -1, self.suits_led, self.misere, self.lead_last, self.name_any
        )
        total = 0
        extra = 0
        jb = self.joker_bit
        if mask & jb and ctx.suits[ctx.joker] < 0:
            total = 1  # the free Joker wins the trick it is led to (R7.2)
        team = (self.counted >> seat) & 1
        union = 0
        for suit in range(4):
            cards = self.order[suit]
            tops = 0
            for at in range(len(cards) - 1, -1, -1):
                pos = cards[at]
                if not (live >> pos) & 1:
                    continue
                if not (mask >> pos) & 1:
                    break
                tops += 1
            if not tops:
                continue
            beat = self.beat[suit]
            union |= beat
            cap = tops
            robust = True
            suit_mask = ctx.suit_masks[suit]
            for other in range(len(hands)):
                if other == seat or not hands[other] or (self.counted >> other) & 1 == team:
                    continue
                if hands[other] & beat:
                    robust = False
                    length = (hands[other] & suit_mask).bit_count()
                    cap = min(cap, length)
            if robust:
                total += tops
            else:
                extra = max(extra, cap)
        total += extra
        # a partner may be forced to overtake (and take the lead) once it has only
        # cards that beat the suit led: count no further than its other cards allow
        for other in range(len(hands)):
            if other != seat and (self.counted >> other) & 1 == team and hands[other] & union:
                total = min(total, (hands[other] & ~union).bit_count())
        return total

    def _key(self, seat: int) -> tuple[int, int, int, int, int, int]:
        """The position at a trick boundary by relative ranks: who holds each live card,
        weakest first, suit by suit (cards out of play do not matter), the free Joker's
        holder, the leader and the suits led (they matter only for a Joker lead, R7.4)."""
        live = self.live
        hands = self.hands
        owner = self.owner
        nseats = len(hands)
        codes = [0, 0, 0, 0]
        for suit in range(4):
            code = 1
            for pos in self.order[suit]:
                if (live >> pos) & 1:
                    code = code * 8 + owner[pos]
            codes[suit] = code
        joker = 0
        extra = seat
        if live & self.joker_bit and self.ctx.suits[self.ctx.joker] < 0:
            joker = owner[self.ctx.joker] + 1
            extra |= self.suits_led << 4
        assert nseats <= 8
        return (codes[0], codes[1], codes[2], codes[3], joker, extra)

    def _try(self, seat: int, move: int, need: int) -> bool:
        """Make ``move``, search on, undo it."""
        pos = move // NAMES
        named = move % NAMES - 1
        bit = 1 << pos
        hands = self.hands
        hands[seat] ^= bit
        trick = self.trick
        if not trick:
            old_leader = self.leader
            old_led = self.led
            old_suits = self.suits_led
            old_over = self.over
            self.leader = seat
            led = self.ctx.led_suit(pos, named)
            self.led = led
            self.over = _over(self.ctx, self.size, led)
            if led >= 0:
                self.suits_led |= 1 << led
            trick.append(pos)
            self.wins.append(0)
            if len(trick) == self.active:  # pragma: no cover - one seat never plays alone
                result = self._close(need)
            else:
                result = self.ge(self.nxt[seat], need)
            trick.pop()
            self.wins.pop()
            self.leader = old_leader
            self.led = old_led
            self.suits_led = old_suits
            self.over = old_over
        else:
            wins = self.wins
            at = wins[-1]
            wins.append(len(trick) if (self.over[trick[at]] >> pos) & 1 else at)
            trick.append(pos)
            if len(trick) == self.active:
                result = self._close(need)
            else:
                result = self.ge(self.nxt[seat], need)
            trick.pop()
            wins.pop()
        hands[seat] ^= bit
        return result

    def _close(self, need: int) -> bool:
        """The trick is complete: score it (R5.4) and search the next one."""
        trick = self.trick
        winner = seat_at(self.nxt, self.leader, self.wins[-1])
        won = (self.counted >> winner) & 1
        if misere_lost(self.ends_early, self.contractor, winner):  # the hand ends
            return won >= need
        saved = trick[:]
        wins = self.wins
        saved_wins = wins[:]
        old_leader = self.leader
        old_led = self.led
        old_live = self.live
        for pos in saved:
            self.live &= ~(1 << pos)
        trick.clear()
        wins.clear()
        self.led = -1
        self.leader = winner
        result = self.ge(winner, need - won)
        trick.extend(saved)
        wins.extend(saved_wins)
        self.live = old_live
        self.leader = old_leader
        self.led = old_led
        return result

    def bounds(self, move: int, low: int, high: int, guess: int) -> tuple[int, int]:
        """The count in ``[low, high]`` from the seat to act (after its ``move``, or
        -1 for its best), by MTD-style null-window tests from ``guess``: the exact
        count twice, or the bounds proven when the node limit stopped the search."""
        seat = self.to_act
        while low < high:
            test = min(max(guess, low + 1), high)
            found = self.ge(seat, test) if move < 0 else self._try(seat, move, test)
            if self.stopped:
                break
            if found:
                low = test
                guess = test + 1
            else:
                high = test - 1
                guess = test - 1
        return low, high

    def judge(self, played: int, guess: int) -> tuple[int, int, int, list[int], list[int]]:
        """What a review needs of the move ``played`` of the seat to act: the count
        after the best move, after ``played`` and after the worst move, with the
        best and the worst moves (of :meth:`root_moves`). Exact unless
        :attr:`stopped`; ``guess`` is where the count after ``played`` is looked for.

        Not every move's count: each move is tested against the best and the worst
        found so far (null-window tests; most moves tie), and searched for its count
        only when it beats one of them.
        """
        seat = self.to_act
        rem = self.remaining()
        flip = (self.maximisers >> seat) & 1 == 0  # the mover wants the count low
        low, _ = self.bounds(played, 0, rem, guess)
        moves = self.root_moves()
        if self.stopped:
            return 0, 0, 0, [], []
        # in the mover's own score (higher is better for it): flipped, rem - count
        mine = rem - low if flip else low
        lo = [0] * len(moves)
        hi = [rem] * len(moves)
        for i, move in enumerate(moves):
            if move == played:
                lo[i] = hi[i] = mine
        best = mine
        for i in range(len(moves)):  # the best: does any move beat the best so far?
            while lo[i] < hi[i] and self._beats(moves[i], best + 1, flip, rem, lo, hi, i):
                best = lo[i]
            if self.stopped:
                return 0, 0, 0, [], []
        for i in range(len(moves)):  # ties with the best
            if lo[i] < best <= hi[i]:
                self._beats(moves[i], best, flip, rem, lo, hi, i)
        worst = mine
        for i in range(len(moves)):  # the worst: is any move below the worst so far?
            if lo[i] >= worst or self._beats(moves[i], worst, flip, rem, lo, hi, i):
                continue
            while lo[i] < hi[i] and not self._beats(moves[i], hi[i], flip, rem, lo, hi, i):
                if self.stopped:
                    return 0, 0, 0, [], []
            worst = hi[i]  # its score, below the worst so far
        for i in range(len(moves)):  # ties with the worst
            if lo[i] <= worst < hi[i]:
                self._beats(moves[i], worst + 1, flip, rem, lo, hi, i)
        if self.stopped:
            return 0, 0, 0, [], []
        best_moves = [moves[i] for i in range(len(moves)) if lo[i] >= best]
        worst_moves = [moves[i] for i in range(len(moves)) if hi[i] <= worst]
        if flip:
            return rem - best, rem - mine, rem - worst, best_moves, worst_moves
        return best, mine, worst, best_moves, worst_moves

    def _beats(
        self, move: int, score: int, flip: bool, rem: int, lo: list[int], hi: list[int], i: int
    ) -> bool:
        """Does the mover's ``move`` score at least ``score`` (its own score: the count,
        or ``rem`` less the count when it wants the count low)? One null-window test,
        kept in ``lo[i]`` and ``hi[i]``."""
        if score <= lo[i]:
            return True
        if score > hi[i]:
            return False
        need = rem - score + 1 if flip else score
        if need <= 0:
            found = True
        elif need > rem:
            found = False
        else:
            found = self._try(self.to_act, move, need)
        if self.stopped:
            return False
        if found != flip:  # the score reached
            lo[i] = score
            return True
        hi[i] = score - 1
        return False

    def remaining(self) -> int:
        """Tricks left to play, the one in progress included."""
        return self.hands[self.to_act].bit_count()

    def root_moves(self) -> list[int]:
        return self.moves(self.to_act)

    def equivalent(self, move: int) -> int:
        """The mask of the seat to act's playable cards that touch ``move``'s card."""
        pos = move // NAMES
        ctx = self.ctx
        suit = ctx.suits[pos]
        if suit < 0:
            return 1 << pos
        hand = self.hands[self.to_act]
        mask = playable(
            ctx,
            hand,
            not self.trick,
            self.led,
            self.suits_led,
            self.misere,
            self.lead_last,
            self.name_any,
        )
        live = self.live
        out = 0
        run = 0
        inside = False
        for card in self.order[suit]:
            if not (live >> card) & 1:
                continue
            if (mask >> card) & 1:
                run |= 1 << card
                if card == pos:
                    inside = True
            else:
                if inside:
                    return run
                run = 0
        if inside:
            out = run
        return out
