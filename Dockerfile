# One image for every Wyvern role: coordinator, simulator worker, submit/check.
#
#   docker build -t wyvern .
#   docker run --rm wyvern --help
#
# Build stage: a static binary of ./cmd/wyvern (pure Go, no cgo).
FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/wyvern ./cmd/wyvern

# Runtime stage: `wyvern submit` and `wyvern check` compile C with clang-14
# (found on PATH, or through WYVERN_CLANG) and disassemble bitcode with
# llvm-dis-14 (WYVERN_LLVM_DIS); clang-14 pulls in libc6-dev for the system
# headers. Workers only run the compiled programs they fetch from NATS.
FROM debian:bookworm-slim
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends clang-14 llvm-14 ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --create-home --uid 10001 wyvern
ENV WYVERN_CLANG=/usr/bin/clang-14 \
    WYVERN_LLVM_DIS=/usr/bin/llvm-dis-14
COPY --from=build /out/wyvern /usr/local/bin/wyvern
USER wyvern
WORKDIR /home/wyvern
# Prometheus metrics (--metrics :9090)
EXPOSE 9090
ENTRYPOINT ["wyvern"]
CMD ["--help"]
