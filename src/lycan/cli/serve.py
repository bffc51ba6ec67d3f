"""The browser table's command: serve, and the host names it answers under (serve_hosts)."""

from __future__ import annotations

from typing import Annotated

import typer

from lycan.cli.common import DbOpt, console, err_console, fail, writable_db


def serve_hosts(host: str, allowed: list[str] | None) -> list[str] | None:
    """The host names `lycan serve` answers under: those given, else the loopback names and `host` itself.

    None (any name) when listening on all addresses with none given: the names people use are unknown.
    """
    if allowed:
        return list(allowed)
    if host in ("0.0.0.0", "::", ""):
        return None
    return sorted({"127.0.0.1", "localhost", "::1", "[::1]", host, f"[{host}]" if ":" in host else host})


def serve(
    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port")] = 8000,
    db: DbOpt = None,
    model: Annotated[str | None, typer.Option("--model", help="chat model for LLM seats (a load_model spec)")] = None,
    voice: Annotated[
        str, typer.Option(help="voices for AI seats: espeak, piper, kokoro, openai:VOICE@URL, gptsovits@URL or none")
    ] = "espeak",
    asr: Annotated[str, typer.Option(help="speech input: whisper (tiny.en, offline) or none")] = "whisper",
    night_min: Annotated[
        float, typer.Option(help="seconds each night lasts at least, so its length tells nothing", min=0)
    ] = 10.0,
    night_wait: Annotated[
        float,
        typer.Option(
            help="seconds into each night at which people's night requests are shown (the wolves' time)", min=0
        ),
    ] = 15.0,
    max_wait: Annotated[float, typer.Option(help="longest a person may take over one decision (s)", min=1)] = 180.0,
    join_timeout: Annotated[
        float, typer.Option(help="seconds a table waits for its first person before it is closed", min=1)
    ] = 300.0,
    create_limit: Annotated[
        int, typer.Option(help="tables one address may create per 10 minutes (0: no limit)", min=0)
    ] = 10,
    origin: Annotated[
        list[str] | None, typer.Option(help="another origin whose pages may open WebSockets (repeatable)")
    ] = None,
    allowed_host: Annotated[
        list[str] | None,
        typer.Option(
            help="a host name the pages may be reached under (repeatable; default: the loopback names, or any "
            "when listening on all addresses)"
        ),
    ] = None,
    allow_seed: Annotated[
        bool, typer.Option(help="let tables with people take a chosen seed (whoever chose it knows the deal)")
    ] = False,
    stored_games: Annotated[
        str,
        typer.Option(
            help="finished games of --db that /games lists and replays: all, web (those played at this server's "
            "tables) or none"
        ),
    ] = "all",
) -> None:
    """Serve the browser table: create games where people and AI players play together, and replay stored ones."""
    path = writable_db(db)  # before anything starts: a bad --db would lose every game played here
    try:
        import uvicorn

        from lycan.web import create_app
    except ImportError as err:
        fail(f"the web table needs the web extra ({err.name} is missing): pip install 'lycan[web]'")

    tts = asr_backend = None
    if voice != "none" or asr != "none":
        try:
            from lycan.voice import WhisperASR, load_tts
        except ImportError as err:
            fail(f"voices need the voice extra ({err.name} is missing): pip install 'lycan[voice]', or --voice none")
        if voice != "none":
            try:
                tts = load_tts(voice)
            except Exception as err:  # each backend explains itself in one sentence
                fail(f"{err} (or use --voice none)")
        if asr == "whisper":
            asr_backend = WhisperASR()
        elif asr != "none":
            fail(f"unknown --asr {asr!r}; use whisper or none")
    if stored_games not in ("all", "web", "none"):
        fail(f"unknown --stored-games {stored_games!r}; use all, web or none")
    hosts = serve_hosts(host, allowed_host)
    if hosts is None:
        err_console.print(
            f"warning: listening on {host} with no --allowed-host: pages answer under any host name, so a page "
            "on a rebound DNS name could reach this server; name the host names people use"
        )
    web_app = create_app(
        store_path=path,
        model_spec=model,
        tts=tts,
        asr=asr_backend,
        night_min=night_min,
        night_wait=night_wait,
        max_wait=max_wait,
        join_timeout=join_timeout,
        create_limit=(create_limit, 600.0) if create_limit else None,
        allowed_origins=origin or (),
        allowed_hosts=hosts,
        allow_seed=allow_seed,
        stored_games=stored_games,  # type: ignore[arg-type]
    )
    console.print(f"Lycan table at http://{host}:{port}/  (Ctrl+C to stop)")
    if stored_games != "none":
        console.print(f"stored games at http://{host}:{port}/games")
    try:
        uvicorn.run(web_app, host=host, port=port, log_level="info", ws="websockets-sansio", ws_max_size=1024 * 1024)
    except OSError as err:
        fail(f"cannot listen on {host}:{port}: {err.strerror or err}")
