"""The library inside your own web app: a practice table against computer players.

``fivehundred serve`` is a whole game server (docs/howto/game-server.md). When
the game is one part of your own app, call the library from your own routes
instead, as here (Starlette; needs ``pip install "fivehundred[server]"``):

    POST /games              a new game: you at seat 0, heuristic players at the others
    GET  /games/{id}         your view (``player_view`` JSON) and your legal actions
    POST /games/{id}/moves   {"action": "7H"}: 400 BAD_NOTATION, 409 NOT_YOUR_TURN,
                             422 with the rules' reason code, or 200 with your new view

Your app keeps the state, passes ``seat=`` from its own session data (here a
token), and sends each player only :func:`fivehundred.observe`'s view. The full
server can live in the same app too: it is mounted at ``/server`` below.

    python examples/table_server.py            # serve on http://127.0.0.1:8600/
    python examples/table_server.py --demo     # a computer player plays a game over HTTP
"""

from __future__ import annotations

import argparse
import json
import random
import secrets
import socket
import threading
import time
import urllib.request
from collections.abc import Sequence
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Mount, Route

import fivehundred as fh
from fivehundred.bots import HeuristicPlayer
from fivehundred.server import create_app

#: The person's seat; the computer players sit at the others.
YOU = 0


class Game:
    """One game: the state, your token, and the computer players that move after you."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)
        self.token = secrets.token_urlsafe(32)
        self.bots = {seat: HeuristicPlayer(random.Random(self.rng.random())) for seat in (1, 2, 3)}
        self.state = self.advance(fh.new_game(fh.Rules(), dealer=self.rng.randrange(4)))

    def advance(self, state: fh.GameState) -> fh.GameState:
        """Deal, and let the computer players move until it is your turn or the game is over."""
        while state.result is None:
            if state.phase is fh.Phase.DEAL:
                state = fh.deal(state, rng=self.rng)
            elif state.to_act != YOU and state.to_act is not None:
                seat = state.to_act
                state = fh.apply(state, self.bots[seat].choose(fh.observe(state, seat)), seat=seat)
            else:
                break
        return state

    def view(self) -> dict[str, Any]:
        view = fh.observe(self.state, YOU)
        return {
            "view": fh.to_dict(view),
            "legal_actions": [fh.format_action(a) for a in view.legal_actions],
        }


GAMES: dict[str, Game] = {}


def refuse(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": code, "message": message}, status_code=status)


def find(request: Request) -> Game | None:
    game = GAMES.get(request.path_params["game"])
    token = request.headers.get("authorization", "").removeprefix("Bearer ")
    if game is None or not secrets.compare_digest(game.token, token):
        return None
    return game


async def new_game(request: Request) -> JSONResponse:
    game = Game()
    game_id = secrets.token_urlsafe(9)
    GAMES[game_id] = game
    return JSONResponse({"game": game_id, "token": game.token}, status_code=201)


async def show(request: Request) -> JSONResponse:
    game = find(request)
    if game is None:
        return refuse(401, "UNAUTHORIZED", "unknown game or token")
    return JSONResponse(game.view())


async def move(request: Request) -> JSONResponse:
    game = find(request)
    if game is None:
        return refuse(401, "UNAUTHORIZED", "unknown game or token")
    try:
        text = json.loads(await request.body())["action"]
    except (ValueError, KeyError, TypeError) as err:
        return refuse(400, "BAD_NOTATION", f'send {{"action": NOTATION}}: {err}'[:200])
    try:  # read in the game's phase ("7H" is a bid or a card), checked for YOU, applied
        state = fh.play(game.state, YOU, text)
    except fh.NotationError as err:
        return refuse(400, "BAD_NOTATION", str(err)[:200])
    except fh.IllegalActionError as err:
        if err.reason in {fh.Reason.NOT_YOUR_TURN, fh.Reason.GAME_OVER}:
            return refuse(409, err.reason.value, str(err))
        return refuse(422, err.reason.value, str(err))
    game.state = game.advance(state)
    return JSONResponse(game.view())


def build_app() -> Starlette:
    """Your app: its own routes, and the full game server mounted at /server."""
    return Starlette(
        routes=[
            Route("/games", new_game, methods=["POST"]),
            Route("/games/{game}", show),
            Route("/games/{game}/moves", move, methods=["POST"]),
            Mount("/server", create_app(":memory:")),
        ]
    )


def call(url: str, token: str | None = None, body: object = None) -> Any:
    request = urllib.request.Request(url, data=None if body is None else json.dumps(body).encode())
    if token is not None:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


def demo(seed: int) -> None:
    """Serve on a free loopback port; a heuristic player plays seat 0 over HTTP."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(build_app(), port=port, log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.02)
    url = f"http://127.0.0.1:{port}"
    print(f"serving at {url}; a heuristic player plays seat 0 over HTTP")
    created = call(f"{url}/games", body={})
    game, token = created["game"], created["token"]
    me = HeuristicPlayer(random.Random(seed))
    moves = 0
    answer = call(f"{url}/games/{game}", token)
    while answer["legal_actions"]:
        view = fh.from_dict(answer["view"], cls=fh.PlayerView)
        action = fh.format_action(me.choose(view))
        answer = call(f"{url}/games/{game}/moves", token, {"action": action})
        moves += 1
    winners = answer["view"]["view"]["result"]["winners"]
    print(f"game over: side {' and '.join(map(str, winners))} won; you made {moves} moves")
    server.should_exit = True


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--demo", action="store_true", help="play one game over HTTP and stop")
    parser.add_argument("--seed", type=int, default=1, help="the demo player's seed")
    parser.add_argument("--port", type=int, default=8600)
    args = parser.parse_args(argv)
    if args.demo:
        demo(args.seed)
    else:
        uvicorn.run(build_app(), host="127.0.0.1", port=args.port)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
