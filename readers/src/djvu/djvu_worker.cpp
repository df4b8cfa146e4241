#include "djvu/djvu_worker.hpp"

#if defined(_WIN32)

namespace mcpread::readers::djvu {

constexpr const char* kNoDjvulibre = "this build of mcp-read has no djvulibre, which reads DjVu documents";

std::variant<Survey, std::string> survey(const Source&, const std::function<std::vector<int>(int)>&,
                                         const std::set<int>&, const CancelToken&) {
  return std::string(kNoDjvulibre);
}

Rendering render(const Source&, int, int, int, const CancelToken&) { return {{}, kNoDjvulibre}; }

}  // namespace mcpread::readers::djvu

#else
#include "djvu/djvu_decode.hpp"

#if __has_include("child_process.hpp")
#include "child_process.hpp"
#define MCPREAD_DJVU_CHILD 1
#endif

#include <nlohmann/json.hpp>

namespace mcpread::readers::djvu {
namespace {

// The decoder's own deadline, inside the child's: a page that djvulibre never finishes is said
// to be late rather than the child killed, so the other pages' work still comes back.
constexpr auto kDecodeTime = std::chrono::seconds(20);

using Json = nlohmann::json;

// A failure as the child sends it.
std::string failed(const std::string& why) {
  const std::vector<std::uint8_t> cbor = Json::to_cbor(Json{{"why", why}});
  return {cbor.begin(), cbor.end()};
}

// Runs `work` in a child process; its message, or why there is none (a clause), in `why`.
std::string isolated(const std::function<std::string()>& work, const CancelToken& cancel, std::string* why) {
#if defined(MCPREAD_DJVU_CHILD)
  child_process::Limits limits;
  const child_process::Outcome out = child_process::run(work, limits, cancel);
  if (out.ending == child_process::Ending::sent) return out.message;
  *why = out.clause("djvulibre", "reading it", limits);
  return {};
#else
  if (cancel.cancelled()) *why = "the read was cancelled";
  return cancel.cancelled() ? std::string() : work();
#endif
}

Json decode(const std::string& message, std::string* why) {
  Json j = Json::from_cbor(message, true, false);
  if (j.is_discarded() || !j.is_object()) {
    *why = "djvulibre's answer was cut short";
    return {};
  }
  if (j.contains("why")) *why = j["why"].get<std::string>();
  return j;
}

}  // namespace

std::variant<Survey, std::string> survey(const Source& source, const std::function<std::vector<int>(int)>& select,
                                         const std::set<int>& known, const CancelToken& cancel) {
  std::string why;
  // Loaded here, before the fork, so that each child inherits djvulibre rather than loading it.
  if (api(&why) == nullptr) return why;
  const std::string message = isolated(
      [&] {
        auto opened = Decoder::open(source, Decoder::Clock::now() + kDecodeTime);
        if (auto* e = std::get_if<std::string>(&opened)) return failed(*e);
        Decoder& d = *std::get<std::unique_ptr<Decoder>>(opened);
        Json pages = Json::array();
        for (int k : select(d.pages())) {
          if (known.contains(k)) continue;
          auto t = d.page_text(k);
          if (auto* e = std::get_if<std::string>(&t)) {
            pages.push_back({{"page", k}, {"why", *e}});
          } else {
            const PageText& p = std::get<PageText>(t);
            pages.push_back({{"page", k}, {"w", p.info.width}, {"h", p.info.height}, {"dpi", p.info.dpi}, {"text", p.text}});
          }
        }
        Json out{{"pages", d.pages()}, {"metadata", d.metadata()}, {"texts", std::move(pages)}};
        const std::vector<std::uint8_t> cbor = Json::to_cbor(out);
        return std::string(cbor.begin(), cbor.end());
      },
      cancel, &why);
  if (!why.empty()) return why;
  const Json j = decode(message, &why);
  if (!why.empty()) return why;
  Survey s;
  s.pages = j.value("pages", 0);
  s.metadata = j.value("metadata", std::map<std::string, std::string>{});
  for (const Json& p : j.value("texts", Json::array()))
    s.texts.push_back({p.value("page", 0), p.value("w", 0), p.value("h", 0), p.value("dpi", 0), p.value("text", ""),
                       p.value("why", "")});
  return s;
}

Rendering render(const Source& source, int page, int width, int height, const CancelToken& cancel) {
  std::string why;
  if (api(&why) == nullptr) return {{}, why};
  const std::string message = isolated(
      [&] {
        auto opened = Decoder::open(source, Decoder::Clock::now() + kDecodeTime);
        if (auto* e = std::get_if<std::string>(&opened)) return failed(*e);
        Rendering r = std::get<std::unique_ptr<Decoder>>(opened)->render_ppm(page, width, height);
        if (!r.why.empty()) return failed(r.why);
        return r.ppm;  // a PPM starts with "P6": never CBOR's map of a failure
      },
      cancel, &why);
  if (!why.empty()) return {{}, why};
  if (message.starts_with("P6")) return {message, {}};
  decode(message, &why);
  return {{}, why.empty() ? "djvulibre's answer was cut short" : why};
}

}  // namespace mcpread::readers::djvu
#endif
