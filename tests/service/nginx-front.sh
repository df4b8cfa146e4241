#!/usr/bin/env bash
# nginx in front of three mcp-read replicas on loopback, with the documented config
# (deploy/nginx/mcp-read.conf) whose addresses are swapped for loopback ports. Writes DIR/nginx.conf,
# checks it (nginx -t), then becomes nginx in the foreground (exec: the caller's pid is nginx's).
#
#   bash tests/service/nginx-front.sh DIR NGINX_PORT R1_PORT R2_PORT R3_PORT
#
# Used by tests/service/run.sh and conformance/oauth/team.mjs. Logs go to DIR/nginx-*.log.
set -uo pipefail
[[ $# == 5 ]] || { echo "usage: nginx-front.sh DIR NGINX_PORT R1_PORT R2_PORT R3_PORT" >&2; exit 2; }
dir=$1 nginx_port=$2
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
nginx_bin="$(command -v nginx || echo /usr/sbin/nginx)"
[[ -x "$nginx_bin" ]] || { echo "nginx is not installed (apt-get install nginx-light)" >&2; exit 1; }

sed -e "s/10\.0\.0\.11:8080/127.0.0.1:$3/g" -e "s/10\.0\.0\.12:8080/127.0.0.1:$4/g" \
    -e "s/10\.0\.0\.13:8080/127.0.0.1:$5/g" -e "s/^\( *\)listen 80;/\1listen 127.0.0.1:${nginx_port};/" \
    "$repo/deploy/nginx/mcp-read.conf" > "$dir/mcp-read.conf"
cat > "$dir/nginx.conf" <<CONF
daemon off;
worker_processes 1;
pid $dir/nginx.pid;
error_log $dir/nginx-error.log warn;
events { worker_connections 1024; }
http {
    access_log $dir/nginx-access.log;
    client_body_temp_path $dir/body;
    proxy_temp_path $dir/proxy;
    fastcgi_temp_path $dir/fastcgi;
    uwsgi_temp_path $dir/uwsgi;
    scgi_temp_path $dir/scgi;
    include $dir/mcp-read.conf;
}
CONF
[[ $(id -u) == 0 ]] && sed -i '1i user root;' "$dir/nginx.conf"
"$nginx_bin" -t -q -c "$dir/nginx.conf" -p "$dir" || { echo "nginx refuses the config $dir/nginx.conf" >&2; exit 1; }
exec "$nginx_bin" -c "$dir/nginx.conf" -p "$dir"
