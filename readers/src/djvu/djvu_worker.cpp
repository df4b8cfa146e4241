#include "djvu/djvu_worker.hpp"

#include "djvu/djvu_message.hpp"

#if defined(_WIN32)

namespace mcpread::readers::djvu {

// No fork, and no djvulibre in the Windows build: refused rather than parsed in the server.
constexpr const char* kNoDjvulibre = "this build of mcp-read has no djvulibre, which reads DjVu documents";

std::variant<Survey, std::string> survey(const Source&, const std::function<std::vector<int>(int)>&,
                                         const std::set<int>&, const CancelToken&) {
  return std::string(kNoDjvulibre);
}

std::variant<std::vector<Rendering>, std::string> render(const Source&, const std::vector<Drawing>&,
                                                         const CancelToken&) {
  return std::string(kNoDjvulibre);
}

}  // namespace mcpread::readers::djvu

#else
#include "child_process.hpp"
#include "djvu/djvu_decode.hpp"

#include <chrono>

namespace mcpread::readers::djvu {
namespace {

// The decoder's own deadline, inside the child's: a page that djvulibre never finishes is said
// to be late rather than the child killed, so the other pages' work still comes back.
constexpr auto kDecodeTime = std::chrono::seconds(40);

child_process::Limits limits_for(std::size_t max_message) {
  child_process::Limits limits;
  limits.cpu_seconds = 60;
  limits.wall = std::chrono::seconds(60);  // past kDecodeTime: a child stalled (a lock held at the fork)
  limits.max_message = max_message;
  return limits;
}

constexpr const char* kGarbled = "djvulibre's process sent back what is not its reading of the document";

}  // namespace

std::variant<Survey, std::string> survey(const Source& source, const std::function<std::vector<int>(int)>& select,
                                         const std::set<int>& known, const CancelToken& cancel) {
  std::string why;
  // Loaded here, before the fork, so that each child inherits djvulibre rather than loading it.
  if (api(&why) == nullptr) return why;
  const child_process::Limits limits = limits_for(std::size_t{64} << 20);
  const child_process::Outcome child = child_process::run(
      [&] {
        auto opened = Decoder::open(source, Decoder::Clock::now() + kDecodeTime);
        if (auto* e = std::get_if<std::string>(&opened)) return encode_survey({}, *e);
        Decoder& d = *std::get<std::unique_ptr<Decoder>>(opened);
        Survey s;
        s.pages = d.pages();
        s.metadata = d.metadata();
        for (int k : select(d.pages())) {
          if (known.contains(k)) continue;
          auto t = d.page_text(k);
          if (auto* e = std::get_if<std::string>(&t)) {
            s.texts.push_back({k, 0, 0, 0, {}, *e, d.past_deadline()});
          } else {
            PageText& p = std::get<PageText>(t);
            s.texts.push_back({k, p.info.width, p.info.height, p.info.dpi, std::move(p.text), {}, false});
          }
        }
        return encode_survey(s, {});
      },
      limits, cancel);
  if (child.ending != child_process::Ending::sent) return child.refusal("djvulibre", "reading it", limits);
  Survey s;
  if (!decode_survey(child.message, select, known, &s, &why)) return std::string(kGarbled);
  if (!why.empty()) return why;
  return s;
}

std::variant<std::vector<Rendering>, std::string> render(const Source& source, const std::vector<Drawing>& drawings,
                                                         const CancelToken& cancel) {
  std::string why;
  if (api(&why) == nullptr) return why;
  std::size_t pixels = 0;
  for (const Drawing& d : drawings) pixels += static_cast<std::size_t>(d.width) * static_cast<std::size_t>(d.height) * 3;
  const child_process::Limits limits = limits_for(pixels + (std::size_t{1} << 20));
  const child_process::Outcome child = child_process::run(
      [&] {
        auto opened = Decoder::open(source, Decoder::Clock::now() + kDecodeTime);
        if (auto* e = std::get_if<std::string>(&opened)) return encode_renderings({}, *e);
        Decoder& doc = *std::get<std::unique_ptr<Decoder>>(opened);
        std::vector<Rendering> out;
        for (const Drawing& d : drawings) out.push_back(doc.render_ppm(d.page, d.width, d.height));
        return encode_renderings(out, {});
      },
      limits, cancel);
  if (child.ending != child_process::Ending::sent) return child.refusal("djvulibre", "drawing its pages", limits);
  std::vector<Rendering> out;
  if (!decode_renderings(child.message, drawings, &out, &why)) return std::string(kGarbled);
  if (!why.empty()) return why;
  return out;
}

}  // namespace mcpread::readers::djvu
#endif
