"""Compatibility suite: the official Lichess Python client (berserk) as the human side against a
real `bot arena` process and a real `bot play` process.

Usage: suite.py URL CAROL_TOKEN DAVE_TOKEN BOT_NAME

Carol and Dave are human accounts; BOT_NAME is the bot that `bot play` runs (it accepts casual
and rated real-time challenges in persian-princess, standard and fromPosition, and declines the
rest). Each scenario prints one line; any failure raises and the exit status is 1.
"""

import json
import queue
import random
import sys
import threading
import time
import urllib.request

import berserk
import berserk.exceptions

URL, CAROL, DAVE, BOT = sys.argv[1:5]
BOT_ID = BOT.lower()
CHESS_FEN = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
rng = random.Random(7)


def client(token):
    return berserk.Client(session=berserk.TokenSession(token), base_url=URL)


carol = client(CAROL)
dave = client(DAVE)


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def events_of(c, user_id):
    """A queue filled with the account's event stream in the background; returns once the
    stream is open (the arena shows the account online), so that no event is missed."""
    q = queue.Queue()

    def run():
        for e in c.board.stream_incoming_events():
            q.put(e)

    threading.Thread(target=run, daemon=True).start()
    end = time.time() + 30
    while time.time() < end:
        if any(s.get("online") for s in c.users.get_realtime_statuses(user_id)):
            return q
        time.sleep(0.05)
    raise AssertionError(f"the event stream of {user_id} did not open")


def wait_event(q, pred, timeout=30):
    end = time.time() + timeout
    while time.time() < end:
        try:
            e = q.get(timeout=max(0.05, end - time.time()))
        except queue.Empty:
            break
        if pred(e):
            return e
    raise AssertionError("no such event in time")


def legal(game_id):
    """The arena's own legal-move list (the client knows no rules of our variants)."""
    with urllib.request.urlopen(f"{URL}/api/arena/game/{game_id}/legal") as r:
        return json.load(r)


def play_to_the_end(c, game_id, color, max_plies=600):
    """Plays random legal moves for `color` until the game ends; returns the final state."""
    state = None
    for event in c.board.stream_game_state(game_id):
        if event["type"] == "gameFull":
            state = event["state"]
        elif event["type"] == "gameState":
            state = event
        else:
            continue
        if state["status"] != "started":
            return state
        moves = state["moves"].split()
        check(len(moves) < max_plies, f"game {game_id} too long")
        position = legal(game_id)
        if position["turn"] == color and position["moves"]:
            c.board.make_move(game_id, rng.choice(position["moves"])["uci"])
    return state


def new_game(c, events, **kwargs):
    """A challenge to the bot that the bot accepts: the started game's id."""
    ch = c.challenges.create(BOT, **kwargs)
    check("finalColor" in ch, f"finalColor missing: {ch}")
    answer = wait_event(
        events,
        lambda e: (e["type"] == "gameStart" and e["game"]["gameId"] == ch["id"])
        or (e["type"] == "challengeDeclined" and e["challenge"]["id"] == ch["id"]),
    )
    check(answer["type"] == "gameStart", f"the bot declined: {answer}")
    return ch, answer["game"]


def main():
    # Accounts.
    me = carol.account.get()
    check(me["username"] == "Carol" and "perfs" in me, me)
    bot_user = carol.users.get_public_data(BOT)
    check(bot_user.get("title") == "BOT", bot_user)
    statuses = carol.users.get_realtime_statuses(BOT, "carol")
    check(any(s["id"] == BOT_ID and s.get("online") for s in statuses), statuses)
    print("account, users, statuses: ok")

    events = events_of(carol, "carol")

    # Declined: a correspondence challenge (the bot plays real time only), made with berserk's
    # defaults (every unused key null).
    ch = carol.challenges.create(BOT, rated=False, days=3, variant="persian-princess")
    check(ch["timeControl"] == {"type": "correspondence", "daysPerTurn": 3}, ch)
    declined = wait_event(events, lambda e: e["type"] == "challengeDeclined" and e["challenge"]["id"] == ch["id"])
    check(declined["challenge"]["declineReasonKey"] == "timecontrol", declined)
    print("correspondence challenge declined by the bot: ok")

    # A full Board API game in a Persian sub-variant, to the end.
    ch, game = new_game(carol, events, rated=True, clock_limit=300, clock_increment=2, variant="persian-princess")
    check(ch["variant"]["key"] == "persian-princess" and ch["perf"]["name"] == "Persian Princess", ch)
    end = play_to_the_end(carol, game["gameId"], game["color"])
    check(end["status"] in ("mate", "draw", "stalemate", "resign", "outoftime"), end)
    print(f"persian-princess game {game['gameId']} to the end: {end['status']}")
    after = carol.account.get()
    check(after["perfs"]["persian-princess"]["games"] == 1, after["perfs"])

    # Chess from a FEN: fromPosition, to the end.
    ch, game = new_game(
        carol, events, rated=False, clock_limit=300, clock_increment=2, variant="standard", position=CHESS_FEN, color="white"
    )
    check(ch["variant"]["key"] == "fromPosition" and ch["initialFen"] == CHESS_FEN, ch)
    end = play_to_the_end(carol, game["gameId"], "white")
    check(end["status"] != "started", end)
    print(f"chess from a FEN {game['gameId']} to the end: {end['status']}")

    # Draw offer, takeback, chat, claims, resign.
    ch, game = new_game(carol, events, rated=False, clock_limit=600, clock_increment=5, variant="persian-princess", color="white")
    gid = game["gameId"]
    stream = carol.board.stream_game_state(gid)
    next(stream)
    carol.board.make_move(gid, legal(gid)["moves"][0]["uci"])
    for state in stream:
        if state.get("type") == "gameState" and len(state["moves"].split()) >= 2:
            break
    carol.board.post_message(gid, "good luck")
    chat = carol.board.get_game_chat(gid)
    check(any(line["text"] == "good luck" and line["user"] == "Carol" for line in chat), chat)
    carol.board.offer_takeback(gid)
    carol.board.offer_draw(gid)
    try:
        carol.board.claim_victory(gid)
        raise AssertionError("claimed victory with the opponent present")
    except berserk.exceptions.ResponseError as e:
        check(e.status_code == 400, e)
    carol.board.resign_game(gid)
    for state in stream:
        if state.get("type") == "gameState" and state["status"] != "started":
            check(state["status"] == "resign" and state.get("winner") == "black", state)
            break
    print(f"chat, takeback and draw offers, claim refused, resign in {gid}: ok")

    # Abort before moving.
    ch, game = new_game(carol, events, rated=False, clock_limit=600, clock_increment=5, variant="persian-princess", color="white")
    carol.board.abort_game(game["gameId"])
    exported = carol.games.export(game["gameId"])
    check(exported["status"] == "aborted", exported)
    print("abort: ok")

    # Export: one game as JSON and PGN, the user's games.
    pgn = carol.games.export(gid, as_pgn=True, clocks=True)
    check('[Result "0-1"]' in pgn and "[%clk" in pgn and '[Variant "Persian Princess"]' in pgn, pgn)
    j = carol.games.export(gid, moves=True)
    check(j["status"] == "resign" and j["players"]["white"]["user"]["name"] == "Carol", j)
    games = list(carol.games.export_by_player("carol", max=10))
    check(len(games) == 4, [g["id"] for g in games])
    pgns = list(carol.games.export_by_player("carol", as_pgn=True, max=2))
    check(len(pgns) >= 1 and "[Event" in "".join(pgns), pgns)
    print(f"export of a game and of the user's {len(games)} games: ok")

    # A correspondence game between two people: Dave accepts through berserk.
    dave_events = events_of(dave, "dave")
    ch = carol.challenges.create("dave", rated=False, days=2, variant="egyptian-eye", color="white")
    wait_event(dave_events, lambda e: e["type"] == "challenge" and e["challenge"]["id"] == ch["id"])
    listed = dave.challenges.get_mine()
    check(any(c["id"] == ch["id"] for c in listed["in"]), listed)
    dave.challenges.accept(ch["id"])
    start = wait_event(events, lambda e: e["type"] == "gameStart" and e["game"]["gameId"] == ch["id"])
    check(start["game"]["speed"] == "correspondence", start)
    full = next(dave.board.stream_game_state(ch["id"]))
    check(full["daysPerTurn"] == 2, full)
    carol.board.make_move(ch["id"], legal(ch["id"])["moves"][0]["uci"])
    dave.board.make_move(ch["id"], legal(ch["id"])["moves"][0]["uci"])
    dave.board.resign_game(ch["id"])
    # Decline path between people.
    ch = dave.challenges.create("carol", rated=False, clock_limit=300, clock_increment=0, variant="celtic-citadel")
    carol.challenges.decline(ch["id"], reason="later")
    print("correspondence game between people, accept and decline: ok")
    print("berserk suite: all passed")


if __name__ == "__main__":
    try:
        main()
    except Exception as e:  # noqa: BLE001 - report any failure with its type
        print(f"FAILED: {type(e).__name__}: {e}", file=sys.stderr)
        sys.exit(1)
