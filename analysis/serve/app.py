"""``cardlab serve``: the advisor and the review in a browser, over an HTTP API the page itself uses.

Everything the page shows comes from the same game interface as the command line: ``POST /api/odds/<game>``
takes a position document (positions.md) and answers exactly what ``cardlab odds <game> --position FILE
--format json`` prints; ``/api/review/<game>`` and ``/api/record/<game>`` likewise. Each analysis runs as a
job on one worker thread (:mod:`.jobs`); the page starts jobs, polls their progress and may cancel them, and
the plain endpoints wait for theirs. Bad input gets one line (``{"error": ...}``, status 400), never a
traceback; request bodies, trial counts and run time are bounded; files are read only from the package's
static folder and the reports folder.
"""

# no ``from __future__ import annotations``: FastAPI reads the endpoints' annotations, and the request models
# are made per game at run time (locals a string annotation could not name)
import asyncio
import contextlib
import functools
import json
import re
from pathlib import Path
from typing import Any

from fastapi import Body, Depends, FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from fastapi_offline import FastAPIOffline
from starlette.exceptions import HTTPException as StarletteHTTPException

from .. import __version__
from .. import games as registry
from ..errors import CardlabError
from ..games.base import Game, RunOptions
from .fields import deck, describe_fields, position_model, record_model
from .jobs import Busy, Job, JobQueue

STATIC = Path(__file__).parent / "static"
_TYPE_TAG = re.compile(r"(str|int|bool|float|list|dict)(\[.*\])?")

#: defaults of the server's bounds (each a ``cardlab serve`` option but the body size)
MAX_BODY = 256 * 1024  # bytes: a record of a whole game is a few kB
MAX_TRIALS = 5_000_000
PRECISION_RANGE = (0.005, 0.2)  # the precision the server accepts (the upper bound where it is a probability)


_BOUNDS = {"greater_than_equal": ("ge", "at least"), "greater_than": ("gt", "above"),
           "less_than_equal": ("le", "at most"), "less_than": ("lt", "below")}  # fmt: skip


def _bound_words(err: dict) -> str:
    """A number out of its range or not a number, in the words of the command line's errors ("expected a whole
    number", "expected a number at least 1"); "" for other errors."""
    kind = err.get("type", "")
    if kind in ("int_parsing", "int_from_float", "int_type"):
        return "expected a whole number"
    if kind in ("float_parsing", "float_type", "finite_number"):
        return "expected a number"
    if kind not in _BOUNDS:
        return ""
    key, words = _BOUNDS[kind]
    return f"expected a number {words} {(err.get('ctx') or {}).get(key)}"


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": _api_words(message)}, status_code=status)


@functools.cache
def _flag_words() -> tuple[re.Pattern, dict[str, str]]:
    """The command-line flags of the advisor's position fields, and the document field each stands for here."""
    words = {o.flag: o.name for g in registry.all_games() for o in g.odds_options if o.name != "position"}
    words |= {"--strategy": "models", "--variant": "variants"}
    return re.compile("|".join(re.escape(f) for f in sorted(words, key=len, reverse=True)) + r"(?![\w-])"), words


def _view(job: Job) -> dict:
    """A job as the API shows it: its error, if any, in the API's words."""
    view = job.view()
    if "error" in view:
        view["error"] = _api_words(view["error"])
    return view


def _api_words(message: str) -> str:
    """A message of the shared checking code in the API's words: a position field by its JSON name, not its
    command-line flag ("give --hand" -> "give hand", "bad --cards-left 1=-6" -> "bad cards_left 1=-6"). The
    server's own flags (cardlab serve --max-trials) are not position fields and stay as they are."""
    pattern, words = _flag_words()
    return pattern.sub(lambda m: words[m.group(0)], message)


class _BodyLimit:
    """Refuse a request body over ``limit`` bytes (413) before the app sees it, whether its size is declared or
    it is streamed: the body is read here (bounded) and handed on whole."""

    def __init__(self, app, limit: int):
        self.app = app
        self.limit = limit

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        too_big = _error(413, f"the request body is over the server's limit of {self.limit:,} bytes")
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.limit:
            return await too_big(scope, receive, send)
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return await self.app(scope, _replay([message]), send)  # the client left: let the app see it
            body += message.get("body", b"")
            if len(body) > self.limit:
                return await too_big(scope, receive, send)
            if not message.get("more_body", False):
                break
        await self.app(scope, _replay([{"type": "http.request", "body": bytes(body), "more_body": False}], receive),
                       send)  # fmt: skip


def _replay(messages: list, then=None):
    """An ASGI ``receive`` that gives ``messages`` first, then waits on ``then`` (the disconnect, say)."""
    queue = list(messages)

    async def receive():
        if queue:
            return queue.pop(0)
        if then is not None:
            return await then()
        return {"type": "http.disconnect"}

    return receive


def _game(game_id: str, capability: str) -> Game:
    try:
        registry.require(game_id, capability)
    except CardlabError as e:
        raise _Refused(404, str(e)) from None
    return registry.get(game_id)


class _Refused(Exception):
    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


def _example_position(game: Game) -> dict | None:
    """The game's example advisor position (the one ``cardlab odds --help`` is tested on) as a document."""
    ex = dict(game.examples.get("odds") or {})
    if not ex:
        return None
    ex.pop("run", None)
    models = ex.pop("strategies", None)  # the Python API's name for a document's models
    if models:
        ex["models"] = models[0] if len(models) == 1 and "=" not in models[0] else dict(m.split("=", 1) for m in models)
    for k, v in list(ex.items()):
        if isinstance(v, list) and v and all(isinstance(x, str) and "=" in x for x in v):
            ex[k] = dict(x.split("=", 1) for x in v)  # SEAT=VALUE items as the document's object
    return ex


def describe(game: Game, info: dict) -> dict:
    """``info`` (:func:`analysis.cli.describe_games`' record of the game) with what the page needs besides."""
    info["fields"] = describe_fields(game)
    info["deck"] = deck(game)
    high = game.rules.data.get("deck", {}).get("high_ranks")
    if high:  # BB-1: the HIGH deck's ranks by player count (the rest are the LOW deck's, dealt only by BB-7)
        info["high_ranks"] = {str(k): list(v) for k, v in high.items()}
    info["example_position"] = _example_position(game)
    info["record_options"] = [{"name": o.name, "help": o.help} for o in game.record_options]
    info["parameterized_strategies"] = list(game.parameterized_strategies)
    return info


def create_app(
    reports: str | Path = "reports",
    max_pending: int = 4,
    max_seconds: float = 300.0,
    max_trials: int = MAX_TRIALS,
    max_body: int = MAX_BODY,
) -> FastAPI:
    """The app: the API under ``/api/``, the page at ``/``, the reports at ``/reports/``, the schema at ``/docs``."""
    jobs = JobQueue(max_pending=max_pending, max_seconds=max_seconds)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        yield
        jobs.close()  # the server is stopping: every job is cancelled (a running one stops at its next batch)

    app = FastAPIOffline(
        lifespan=lifespan,
        title="cardlab",
        version=__version__,
        description="The advisor, the records and the reviews of cardlab's four games, as the command line "
        "computes them (`cardlab odds|record|review <game> --format json`). Analyses run one at a time; "
        "`/api/jobs/...` starts one and reports its progress, the plain endpoints wait for the answer.",
    )
    app.state.jobs = jobs
    app.state.reports = Path(reports)

    @app.exception_handler(_Refused)
    async def refused(request: Request, e: _Refused):
        return _error(e.status, e.message)

    @app.exception_handler(Busy)
    async def busy(request: Request, e: Busy):
        return _error(503, str(e))

    @app.exception_handler(CardlabError)
    async def bad_input(request: Request, e: CardlabError):
        return _error(400, str(e))

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, e: RequestValidationError):
        err = e.errors()[0]
        # the location without "body" and without the names pydantic gives the members of a union ("str", ...)
        where = [str(x) for x in err.get("loc", ()) if x != "body" and not _TYPE_TAG.fullmatch(str(x))]
        what = " ".join(where[:1]) if where and where[0] in ("query", "path") else "/".join(where)
        field = "/".join(where[1:]) if where and where[0] in ("query", "path") else what
        msg = err.get("msg", "invalid")
        if err.get("type") == "extra_forbidden":
            msg = "unknown field"
            route = request.scope.get("route")
            body = getattr(getattr(route, "body_field", None), "field_info", None)
            fields = getattr(getattr(body, "annotation", None), "model_fields", None)
            if fields and len(where) == 1:  # a field of the document itself: name them all, as the CLI does
                msg += f"; accepted: {', '.join(fields)}"
                if where[0] in ("strategy", "strategies") and "models" in fields:
                    msg += " (the players the position is played on with are its models)"
        bound = _bound_words(err)
        if bound:  # a query parameter as typed, a field of the document as JSON
            given = err.get("input") if where and where[0] == "query" else json.dumps(err.get("input"))
            return _error(400, f"bad {field or 'request'} {given}: {bound}")
        if err.get("type") == "json_invalid":
            why = (err.get("ctx") or {}).get("error", "")
            return _error(400, f"the request body is not valid JSON{': ' + str(why) if why else ''}")
        if err.get("type") == "missing" and list(err.get("loc", ())) == ["body"]:
            return _error(400, "the request body is empty: send a JSON document (Content-Type: application/json)")
        if err.get("type") in ("model_attributes_type", "dict_type") and not field:
            kind = request.headers.get("content-type", "none")
            return _error(400, f"the request body is not a JSON object (Content-Type {kind}; send application/json)")
        return _error(400, f"bad {field or 'request'}: {msg}")

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, e: StarletteHTTPException):
        detail = e.detail if isinstance(e.detail, str) else "error"
        return _error(e.status_code, detail if e.status_code != 404 else f"not found: {request.url.path}")

    def run_options(game: Game, trials: int | None, precision: float | None, seed: int) -> RunOptions:
        if trials is not None and precision is not None:
            raise CardlabError("give trials or precision (query parameters), not both")
        if trials is None and precision is None:
            precision = game.review_precision  # the review's, in the advisor's measure: a probability or points
        if trials is not None and trials > max_trials:
            raise CardlabError(
                f"bad trials {trials}: the server runs at most {max_trials:,} (cardlab serve --max-trials)"
            )
        return RunOptions(trials=trials, precision=precision, seed=seed, progress=False)

    # --- the work each endpoint does, run on the job thread -----------------------------------------------

    def odds_work(game: Game, doc: dict, run: RunOptions):
        def work():
            from ..cli import render_result

            result = game.odds(run, position=doc)
            return json.loads(render_result(result, "json", game))

        return work

    def review_work(game: Game, doc: dict, seat: int | None, run: RunOptions):
        def work():
            from ..cli import render_result, review_result

            result = review_result(game, game.review(doc, seat=seat, run=run))
            return json.loads(render_result(result, "json"))

        return work

    def record_work(game: Game, req: dict):
        def work():
            # the game reads variants as a dict and strategies as the API gives them (rules.strategy_items)
            strategies = req.pop("strategies", None)
            variants = req.pop("variants", None)
            options = {k: v for k, v in req.items() if v is not None and k not in ("seed", "players")}
            return game.record(
                seed=req.get("seed", 0), players=req.get("players"), variants=variants, strategies=strategies, **options
            )

        return work

    async def answer(request: Request, job: Job) -> JSONResponse:
        """Wait for ``job`` (cancelled if the client goes away) and answer its result or its one-line error."""
        while not job.done.is_set():
            if await request.is_disconnected():
                jobs.cancel(job)
                break
            await asyncio.sleep(0.05)
        await asyncio.to_thread(job.done.wait)
        if job.state == "done":
            return JSONResponse(job.result)
        return _error(job.status, job.error or job.state)

    def started(job: Job) -> JSONResponse:
        return JSONResponse(job.view(), status_code=202, headers={"Location": f"/api/jobs/{job.id}"})

    # --- the API ------------------------------------------------------------------------------------------

    @app.get("/api/games", summary="The games: players, variants, strategies, position fields, deck")
    def games() -> dict:
        from ..cli import describe_games
        from ..tables import ADVISOR_ROWS

        return {
            "version": __version__,
            # how many actions an advisor's chart shows beside those not clearly worse (the command line's table)
            "advisor_rows": ADVISOR_ROWS,
            "games": [describe(g, i) for g, i in zip(registry.all_games(), describe_games())],
        }

    @app.get("/api/jobs/{job_id}", summary="A job's state, progress and (when done) its answer")
    def job_state(job_id: str) -> JSONResponse:
        job = jobs.get(job_id)
        if job is None:
            raise _Refused(404, f"no job {job_id!r} (finished jobs are kept for a while only)")
        # 200 whatever the job's end: the poll itself is fine; a failed job says so in "state" and "error"
        return JSONResponse(_view(job))

    @app.delete("/api/jobs/{job_id}", summary="Cancel a job (a running analysis stops at its next batch)")
    def job_cancel(job_id: str) -> JSONResponse:
        job = jobs.get(job_id)
        if job is None:
            raise _Refused(404, f"no job {job_id!r}")
        jobs.cancel(job)
        return JSONResponse(_view(job))

    def only(*names: str):
        """A dependency refusing a query parameter the endpoint does not take (a misspelt ?trails=300 had been
        ignored, and the default run made)."""

        def check(request: Request) -> None:
            bad = sorted(set(request.query_params) - set(names))
            if bad:
                raise _Refused(
                    400, f"unknown query parameter {bad[0]!r}; accepted: {', '.join(names) if names else 'none'}"
                )

        return Depends(check)

    trials_q = Query(None, ge=1, description="run this many sampled layouts (trials or precision, not both)")

    def precision_query(game: Game, default: float | None, what: str):
        """``precision`` in the game's advisor measure: a probability (ZS, Bisko-Bobo) is refused at 1 or more and
        below the finest the server runs, points (Biscuits, Bismarck) below the finest alone."""
        prob = game.review_precision_probability
        return Query(
            default, ge=PRECISION_RANGE[0], le=PRECISION_RANGE[1] if prob else None,
            description=f"{what} within ±P, {game.review_precision_unit} (default {game.review_precision}; from "
            f"{PRECISION_RANGE[0]}" + (f" to {PRECISION_RANGE[1]})" if prob else ")"),
        )  # fmt: skip

    seed_q = Query(0, ge=0, description="the seed (the same seed gives the same answer as the command line)")

    for game in registry.all_games():
        gid = game.id
        caps = game.capabilities()
        if "odds" in caps:
            model = position_model(game)
            precision_q = precision_query(game, None, "run until every paired difference to the best is")

            def odds_job(game: Game, body, trials, precision, seed) -> Job:
                doc = body.model_dump(exclude_none=True)
                run = run_options(game, trials, precision, seed)
                return jobs.submit("odds", game.id, odds_work(game, doc, run))

            def make_odds(game=game, model=model, odds_job=odds_job, precision_q=precision_q):
                async def odds(
                    request: Request,
                    position: model = Body(...),
                    trials: int | None = trials_q,
                    precision: float | None = precision_q,
                    seed: int = seed_q,
                ) -> JSONResponse:
                    return await answer(request, odds_job(game, position, trials, precision, seed))

                async def odds_start(
                    position: model = Body(...),
                    trials: int | None = trials_q,
                    precision: float | None = precision_q,
                    seed: int = seed_q,
                ) -> JSONResponse:
                    return started(odds_job(game, position, trials, precision, seed))

                return odds, odds_start

            odds, odds_start = make_odds()
            odds_q = [only("trials", "precision", "seed")]
            app.post(
                f"/api/odds/{gid}", summary=f"{game.rules.name}: the advisor on a position (cardlab odds {gid})",
                tags=[gid], dependencies=odds_q,
            )(odds)  # fmt: skip
            app.post(f"/api/jobs/odds/{gid}", summary=f"{game.rules.name}: start the advisor as a job", tags=[gid],
                     status_code=202, dependencies=odds_q)(odds_start)  # fmt: skip
        if "review" in caps:

            def make_review(game=game):
                def review_job(record: dict, seat, precision, seed) -> Job:
                    run = RunOptions(precision=precision, seed=seed, progress=False)
                    return jobs.submit("review", game.id, review_work(game, record, seat, run))

                review_args: dict[str, Any] = {
                    "seat": Query(None, ge=0, description="review this seat's decisions (default: every seat's)"),
                    "precision": precision_query(game, game.review_precision, "each decision's paired differences"),
                    "seed": seed_q,
                }  # fmt: skip

                async def review(
                    request: Request,
                    record: dict[str, Any] = Body(..., description="a record document (cardlab record)"),
                    seat: int | None = review_args["seat"],
                    precision: float = review_args["precision"],
                    seed: int = review_args["seed"],
                ) -> JSONResponse:
                    return await answer(request, review_job(record, seat, precision, seed))

                async def review_start(
                    record: dict[str, Any] = Body(..., description="a record document (cardlab record)"),
                    seat: int | None = review_args["seat"],
                    precision: float = review_args["precision"],
                    seed: int = review_args["seed"],
                ) -> JSONResponse:
                    return started(review_job(record, seat, precision, seed))

                return review, review_start

            review, review_start = make_review()
            review_q = [only("seat", "precision", "seed")]
            app.post(f"/api/review/{gid}", summary=f"{game.rules.name}: review a record (cardlab review {gid})",
                     tags=[gid], dependencies=review_q)(review)  # fmt: skip
            app.post(f"/api/jobs/review/{gid}", summary=f"{game.rules.name}: start a review as a job", tags=[gid],
                     status_code=202, dependencies=review_q)(review_start)  # fmt: skip
        if "record" in caps:
            rmodel = record_model(game)

            def make_record(game=game, rmodel=rmodel):
                async def record(
                    request: Request,
                    body: rmodel | None = Body(None),
                ) -> JSONResponse:
                    req: dict = body.model_dump() if body is not None else {}
                    return await answer(request, jobs.submit("record", game.id, record_work(game, req)))

                return record

            app.post(f"/api/record/{gid}", summary=f"{game.rules.name}: simulate and record one game (cardlab record {gid})",
                     tags=[gid], dependencies=[only()])(make_record())  # fmt: skip

    # --- the reports and the page -------------------------------------------------------------------------

    @app.get("/api/reports", summary="The report files in the reports folder (make report writes them)")
    def report_list() -> dict:
        root = app.state.reports
        files = sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()) if root.is_dir() else []
        return {"folder": str(root), "files": [f for f in files if f.endswith((".html", ".md", ".png", ".csv"))]}

    @app.api_route("/api/{rest:path}", methods=["GET", "POST", "DELETE", "PUT", "PATCH"], include_in_schema=False)
    def unknown(rest: str, request: Request):
        parts = rest.split("/")
        if (
            len(parts) >= 2
            and parts[0] in ("odds", "review", "record")
            or parts[:2] in (["jobs", "odds"], ["jobs", "review"])
        ):
            gid = parts[-1]
            cap = parts[-2] if parts[0] == "jobs" else parts[0]
            _game(gid, cap)  # refuses an unknown game, or one without the capability, with the accepted names
        allowed = [
            m
            for r in app.routes
            if getattr(r, "path", None) == f"/api/{rest}"
            for m in getattr(r, "methods", None) or ()
        ]
        if allowed:  # the endpoint exists, for another method (a GET where a POST is expected)
            return JSONResponse(
                {"error": f"{request.method} is not accepted at /api/{rest}: use {' or '.join(sorted(allowed))}"},
                status_code=405,
                headers={"Allow": ", ".join(sorted(allowed))},
            )
        raise _Refused(404, f"no API endpoint /api/{rest}; see /docs")

    if Path(reports).is_dir():
        app.mount("/reports", StaticFiles(directory=str(reports), html=True), name="reports")
    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")

    @app.get("/", include_in_schema=False)
    def page() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    # the schema page as the server answers: bad input is 400 with {"error": "one line"}, not FastAPI's 422
    base_openapi = app.openapi

    def openapi() -> dict:
        schema = base_openapi()
        for ops in schema.get("paths", {}).values():
            for op in ops.values():
                responses = op.get("responses", {})
                if responses.pop("422", None) is not None:
                    responses.setdefault("400", {"description": 'bad input: {"error": "one line"}'})
        return schema

    app.openapi = openapi  # type: ignore[method-assign]
    app.add_middleware(_BodyLimit, limit=max_body)
    return app
