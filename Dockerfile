# sunbot in a container: `docker build -t sunbot .`, then `docker run --rm -v sunbot-data:/data
# sunbot bench keelhold --seeds 1-100` (docs/guide-long-runs.md). Transcripts, bench stores,
# status files and the daily spend ledger live on the /data volume; the image runs as a user
# of its own, never root.
# BASE: the official slim Python image, or any Debian-like image with python3 and apt
ARG BASE=python:3.11-slim

# -- build: a virtual environment with sunbot, its C search extension compiled -------------
FROM ${BASE} AS build
# gcc for the extension; Python's headers too on a base whose python3 is the system's
RUN headers="$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["include"])')" \
    && apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && { [ -e "$headers/Python.h" ] || apt-get install -y --no-install-recommends python3-dev; } \
    && rm -rf /var/lib/apt/lists/*
RUN python3 -m venv /opt/sunbot
WORKDIR /src
COPY pyproject.toml README.md ./
COPY sunbot ./sunbot
# behind a proxy with its own certificate authority: --secret id=pip_cert,src=BUNDLE.pem
RUN --mount=type=secret,id=pip_cert \
    if [ -s /run/secrets/pip_cert ]; then export PIP_CERT=/run/secrets/pip_cert; fi \
    && /opt/sunbot/bin/pip install --no-cache-dir --upgrade pip \
    && /opt/sunbot/bin/pip install --no-cache-dir '.[llm]' \
    && cd / && /opt/sunbot/bin/python -c "import sunbot.strategies._sunloaf_beam"

# -- run: the environment on a clean base, a user of its own, sunbot as the entry point ------
FROM ${BASE}
RUN useradd --create-home --uid 10001 --shell /usr/sbin/nologin sunbot \
    && mkdir -p /data \
    && chown sunbot:sunbot /data
COPY --from=build /opt/sunbot /opt/sunbot
ENV PATH=/opt/sunbot/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    SUNBOT_STATE_DIR=/data/state
# the working folder: ./sunbot.toml, transcripts/ and bench-out/ land here
WORKDIR /data
VOLUME ["/data"]
USER sunbot
ENTRYPOINT ["sunbot"]
CMD ["--help"]
