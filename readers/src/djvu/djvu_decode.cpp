#if !defined(_WIN32)
#include "djvu/djvu_decode.hpp"
#include "djvu/djvu_message.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <thread>

namespace mcpread::readers::djvu {
namespace {

bool is_symbol(const Api& a, miniexp_t e, const char* name) {
  return miniexp_symbolp(e) && std::strcmp(a.to_name(e), name) == 0;
}

// Appends the text of a hidden-text zone, (type x0 y0 x1 y1 child...) where each child is a zone
// or a string: a line ends with a line break, a paragraph, region or column with a blank line.
// `depth` bounds the recursion on a hostile file (the format nests six levels).
void append_zone(const Api& a, miniexp_t zone, int depth, std::string* out) {
  if (depth > 16 || !miniexp_consp(zone)) return;
  const miniexp_t type = miniexp_car(zone);
  miniexp_t child = zone;
  for (int i = 0; i < 5 && miniexp_consp(child); ++i) child = miniexp_cdr(child);
  for (; miniexp_consp(child); child = miniexp_cdr(child)) {
    const miniexp_t c = miniexp_car(child);
    if (a.stringp(c)) {
      if (!out->empty() && out->back() != '\n' && out->back() != ' ') *out += ' ';
      *out += a.to_str(c);
    } else {
      append_zone(a, c, depth + 1, out);
    }
  }
  if (is_symbol(a, type, "line")) *out += '\n';
  else if (is_symbol(a, type, "para") || is_symbol(a, type, "region") || is_symbol(a, type, "column"))
    *out += "\n\n";
}

}  // namespace

std::variant<std::unique_ptr<Decoder>, std::string> Decoder::open(const Source& source, Clock::time_point deadline) {
  std::string why;
  const Api* a = api(&why);
  if (a == nullptr) return why;
  std::unique_ptr<Decoder> d(new Decoder(a, deadline));
  d->ctx_ = a->context_create("mcp-read");
  if (d->ctx_ == nullptr) return std::string("djvulibre could not start");
  a->cache_set_size(d->ctx_, 0);  // each page is decoded once per read: nothing to keep
  d->doc_ = a->document_create(d->ctx_, nullptr, 0);
  if (d->doc_ != nullptr) {
    // djvulibre takes the length as an unsigned long; the reader's size limit keeps it small.
    a->stream_write(d->doc_, 0, source.bytes.data(), static_cast<unsigned long>(source.bytes.size()));
    a->stream_close(d->doc_, 0, 0);
  }
  if (d->doc_ == nullptr) return std::string("djvulibre cannot open it");
  ddjvu_job_t* job = a->document_job(d->doc_);
  if (!d->wait([&] { return a->job_status(job) >= DDJVU_JOB_OK; }))
    return std::string("djvulibre did not finish reading its structure in time (a damaged file?)");
  if (a->job_status(job) != DDJVU_JOB_OK) return d->failure("it");
  d->pages_ = a->document_get_pagenum(d->doc_);
  if (d->pages_ <= 0) return d->failure("its pages");
  return d;
}

Decoder::~Decoder() {
  if (doc_ != nullptr) api_->job_release(api_->document_job(doc_));
  if (ctx_ != nullptr) api_->context_release(ctx_);
}

void Decoder::drain() {
  while (const ddjvu_message_t* m = api_->message_peek(ctx_)) {
    if (m->m_any.tag == DDJVU_ERROR && error_.empty() && m->m_error.message != nullptr) {
      error_ = m->m_error.message;
    } else if (m->m_any.tag == DDJVU_NEWSTREAM && m->m_newstream.streamid != 0) {
      // Only a document read from memory asks: its page files are not there to give.
      wanted_other_file_ = true;
      api_->stream_close(doc_, m->m_newstream.streamid, 1);
    }
    api_->message_pop(ctx_);
  }
}

template <class Done>
bool Decoder::wait(Done done) {
  auto pause = std::chrono::microseconds(100);
  for (;;) {
    drain();
    if (done()) return true;
    if (Clock::now() >= deadline_) return false;
    std::this_thread::sleep_for(pause);
    pause = std::min<std::chrono::microseconds>(pause * 2, std::chrono::milliseconds(5));
  }
}

std::string Decoder::failure(std::string_view what) {
  // djvulibre's decoding thread can mark a job failed before it posts the error saying why: the
  // message is given a moment (a second at most) to arrive.
  const auto until = std::min(deadline_, Clock::now() + std::chrono::seconds(1));
  (void)wait([&] { return !error_.empty() || wanted_other_file_ || Clock::now() >= until; });
  if (wanted_other_file_)
    return "it is an indirect DjVu document, whose pages are separate files, which are not read; bundle it "
           "(djvmcvt -b INDEX.djvu BUNDLED.djvu) and read the bundled document";
  std::string e = error_;
  // djvulibre's messages start with their catalogue number: "[1-15108] Corrupted IFF file ...".
  if (e.starts_with("[") && e.find("] ") != std::string::npos && e.find("] ") < 16) e.erase(0, e.find("] ") + 2);
  while (!e.empty() && (e.back() == '.' || e.back() == '\n' || e.back() == ' ')) e.pop_back();
  return "djvulibre cannot read " + std::string(what) + (e.empty() ? std::string() : ": " + e);
}

std::map<std::string, std::string> Decoder::metadata() {
  std::map<std::string, std::string> out;
  miniexp_t anno = miniexp_dummy;
  if (!wait([&] { return (anno = api_->document_get_anno(doc_, 1)) != miniexp_dummy; })) return out;
  if (!miniexp_consp(anno)) return out;
  if (miniexp_t* keys = api_->anno_get_metadata_keys(anno)) {
    for (miniexp_t* k = keys; *k != miniexp_nil; ++k) {
      const char* value = api_->anno_get_metadata(anno, *k);
      if (miniexp_symbolp(*k) && value != nullptr) out[api_->to_name(*k)] = value;
    }
    std::free(keys);
  }
  api_->miniexp_release(doc_, anno);
  return out;
}

std::variant<PageText, std::string> Decoder::page_text(int k) {
  const std::string page = "page " + std::to_string(k);
  ddjvu_pageinfo_t info{};
  ddjvu_status_t status = DDJVU_JOB_NOTSTARTED;
  if (!wait([&] {
        return (status = api_->document_get_pageinfo(doc_, k - 1, &info, sizeof info)) >= DDJVU_JOB_OK;
      }))
    return "djvulibre did not finish reading " + page + " in time";
  if (status != DDJVU_JOB_OK || info.width <= 0 || info.height <= 0) return failure(page);
  PageText t;
  const bool turned = info.rotation == 1 || info.rotation == 3;  // quarter turns
  t.info = {turned ? info.height : info.width, turned ? info.width : info.height, info.dpi > 0 ? info.dpi : 300};
  miniexp_t text = miniexp_dummy;
  if (!wait([&] { return (text = api_->document_get_pagetext(doc_, k - 1, "line")) != miniexp_dummy; }))
    return "djvulibre did not finish reading the text of " + page + " in time";
  if (miniexp_symbolp(text)) return failure("the text of " + page);  // failed, stopped
  append_zone(*api_, text, 0, &t.text);
  api_->miniexp_release(doc_, text);
  return t;
}

Rendering Decoder::render_ppm(int k, int width, int height) {
  const std::string page = "page " + std::to_string(k);
  ddjvu_page_t* p = api_->page_create_by_pageno(doc_, k - 1);
  if (p == nullptr) return {{}, failure(page)};
  ddjvu_job_t* job = api_->page_job(p);
  struct Release {
    const Api* a;
    ddjvu_job_t* j;
    ~Release() { a->job_release(j); }
  } release{api_, job};
  if (!wait([&] { return api_->job_status(job) >= DDJVU_JOB_OK; }))
    return {{}, "djvulibre did not finish decoding " + page + " in time"};
  if (api_->job_status(job) != DDJVU_JOB_OK || api_->page_get_width(p) <= 0)
    return {{}, failure(page)};
  ddjvu_format_t* format = api_->format_create(DDJVU_FORMAT_RGB24, 0, nullptr);
  api_->format_set_row_order(format, 1);
  api_->format_set_y_direction(format, 1);
  const std::string head = ppm_header(width, height);
  std::string ppm(head.size() + static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * 3, '\0');
  std::memcpy(ppm.data(), head.data(), head.size());
  const ddjvu_rect_t rect{0, 0, static_cast<unsigned>(width), static_cast<unsigned>(height)};
  const int drawn = api_->page_render(p, DDJVU_RENDER_COLOR, &rect, &rect, format,
                                      static_cast<unsigned long>(width) * 3, ppm.data() + head.size());
  api_->format_release(format);
  // Nothing drawn: a page with no image layers at all, which is white.
  if (drawn == 0) std::memset(ppm.data() + head.size(), 0xff, ppm.size() - head.size());
  return {std::move(ppm), {}};
}

}  // namespace mcpread::readers::djvu
#endif
