# mcp-read in a container (README.md, "Container image": configs for Claude Desktop on macOS and
# Windows). Build, then either start it from an MCP host over stdio, the home folder mounted
# read-only at the same path so that the model's paths work inside:
#   docker build -t mcp-read .
#   docker run -i --rm -v "$HOME:$HOME:ro" mcp-read "$HOME/projects"
# or serve the directory mounted at /data over HTTP (the default arguments below):
#   docker run --rm -p 127.0.0.1:8080:8080 -v "$PWD:/data:ro" -e MCP_READ_AUTH_TOKEN=secret mcp-read
# Clients connect to http://localhost:8080/mcp (Streamable HTTP) or /sse (HTTP+SSE). The server
# listens on every interface of the container, so set MCP_READ_AUTH_TOKEN whenever the port is
# reachable from other machines. The server runs as the unprivileged user mcp-read, so the files
# must be readable by others (or run with --user "$(id -u):$(id -g)"). Arguments given to
# `docker run` after the image name replace the default ones below.
# Proven with Podman, both forms: tests/container/run.sh builds this file unchanged and reads a
# text file, an image and a PDF through each. Docker itself is not tested.

# Build stage: the build packages are those of scripts/install-deps.sh (run here, so the list
# cannot drift), then a Release build installed into /staging.
FROM debian:bookworm AS build
COPY scripts/install-deps.sh /src/scripts/install-deps.sh
# A layer of its own: editing the sources does not reinstall the packages.
RUN bash /src/scripts/install-deps.sh && rm -rf /var/lib/apt/lists/*
COPY . /src
RUN cmake -S /src -B /build -G Ninja -DCMAKE_BUILD_TYPE=Release -DMCPREAD_BUILD_TESTS=OFF \
 && cmake --build /build \
 && cmake --install /build --prefix /staging --strip

# Runtime stage: only the runtime packages, from the same lists as the .deb's Depends and
# Recommends (packaging/runtime-packages.txt, which assumes the default static linking above, and
# packaging/recommended-packages.txt: the OCR language data).
FROM debian:bookworm-slim
COPY packaging/runtime-packages.txt packaging/recommended-packages.txt /tmp/
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $(sed -e 's/#.*//' /tmp/runtime-packages.txt /tmp/recommended-packages.txt) \
 && rm -rf /var/lib/apt/lists/* /tmp/runtime-packages.txt /tmp/recommended-packages.txt
# bin/mcp-read and lib/mcp-read/libmcpread_{pdf,revenge}.so: the plugins are found relative to the binary.
COPY --from=build /staging/ /usr/local/
RUN useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin mcp-read \
 && mkdir /data
USER mcp-read
WORKDIR /data
EXPOSE 8080
ENTRYPOINT ["mcp-read"]
CMD ["--transport", "http", "--host", "0.0.0.0", "--port", "8080", "/data"]
