# syntax=docker/dockerfile:1
# The arena (a Lichess-compatible server for our variants) and the Lichess bot, in one image:
# the `persian-bot` binary serves the arena (`arena`, the default) or plays as a bot (`play`).
#
#   docker build -t persian-chess .
#   docker run -p 9663:9663 -v arena-data:/data persian-chess                  # the arena
#   docker run -v "$PWD/bot.toml:/data/bot.toml:ro" -e LICHESS_BOT_TOKEN=... persian-chess play
#
# See the README ("Install") and docs/arena.md.

# Build stage: the locked dependency tree, release profile without debug information.
FROM rust:1.89-slim-bookworm AS build
WORKDIR /src
ENV CARGO_PROFILE_RELEASE_DEBUG=0 \
    CARGO_TERM_COLOR=never
COPY . .
# The registry and target folders are build caches: a rebuild after a source change compiles
# only what changed.
RUN --mount=type=cache,target=/usr/local/cargo/registry \
    --mount=type=cache,target=/src/target \
    cargo build --release --locked -p bot \
    && install -m 0755 target/release/persian-bot /usr/local/bin/persian-bot

# Run stage: the binary (nets and web pages are built into it), a user without privileges and a
# volume for the database.
FROM debian:bookworm-slim
RUN groupadd --system --gid 10001 arena \
    && useradd --system --uid 10001 --gid arena --home-dir /data --no-create-home arena \
    && mkdir -p /data \
    && chown arena:arena /data
COPY --from=build /usr/local/bin/persian-bot /usr/local/bin/persian-bot
USER 10001:10001
WORKDIR /data
VOLUME ["/data"]
EXPOSE 9663
ENTRYPOINT ["persian-bot"]
# Inside a container the arena listens on every interface; publish the port to choose who
# reaches it (keep a reverse proxy in front of it in public, see docs/arena.md).
CMD ["arena", "--bind", "0.0.0.0", "--port", "9663", "--db", "/data/arena.sqlite"]
