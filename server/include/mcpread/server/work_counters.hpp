#pragma once
// What the tool host tells the transport about its work, for an operator's /metrics: calls
// waiting for a worker, calls running, and each `read` by the kind of file and its outcome. The
// app reports here without knowing who counts (the HTTP transport does; stdio counts nothing).
#include <cstddef>
#include <string_view>

namespace mcpread::server {

class WorkCounters {
 public:
  virtual ~WorkCounters() = default;
  virtual void call_queued() = 0;    // a call or resource request posted to the worker pool
  virtual void call_started() = 0;   // a worker took it
  virtual void call_finished() = 0;  // its work is over
  // One `read` ended. `kind`: what the file was read as ("text", "image", "pdf" …; "none" when
  // the read stopped before the file was classified); `outcome`: "ok", "error" or "cancelled".
  virtual void read_done(std::string_view kind, std::string_view outcome) = 0;
  // A read that ran OCR: pages (or images) recognised by the engine, and those answered from the
  // OCR cache. OCR is the costliest work a read does, so an operator counts it apart.
  virtual void ocr_done(std::size_t recognised, std::size_t from_cache) = 0;
};

}  // namespace mcpread::server
