#include "ops_endpoint.hpp"

#include "replies.hpp"

namespace mcpread::server::http {

namespace bhttp = boost::beast::http;

namespace {

Response text_response(unsigned status, std::string body, std::string_view content_type) {
  Response r{static_cast<bhttp::status>(status), 11};
  // As a std::string: Boost 1.74's Beast (the portable bundle's) takes no std::string_view here.
  r.set(bhttp::field::content_type, std::string(content_type));
  r.set(bhttp::field::cache_control, "no-store");
  r.body() = std::move(body);
  r.prepare_payload();
  return r;
}

}  // namespace

void OpsEndpoint::handle(const Request& request, const std::shared_ptr<ResponseSink>& sink) const {
  if (request.method() != bhttp::verb::get) {
    sink->respond(empty_response(405, {{"Allow", "GET"}}));
    return;
  }
  const std::string_view path = path_of(request);
  const bool ready = !draining_.load(std::memory_order_acquire);
  sink->respond(path == "/healthz" ? text_response(200, "ok\n", "text/plain; charset=utf-8")
               : path == "/readyz"
                   ? text_response(ready ? 200 : 503, ready ? "ready\n" : "draining\n", "text/plain; charset=utf-8")
                   : text_response(200, metrics_.render({sessions_.size(), ready}),
                                   "text/plain; version=0.0.4; charset=utf-8"));
}

}  // namespace mcpread::server::http
