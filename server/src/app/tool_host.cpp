#include "tool_host.hpp"

#include "hint_wording.hpp"
#include "idle_memory.hpp"
#include "read_task.hpp"

#include "read_tool.hpp"
#include "image_text.hpp"
#include "result_shaper.hpp"

#include "mcpread/protocol/pagination.hpp"
#include "mcpread/server/read_scope.hpp"
#include "mcpread/readers/access.hpp"
#include "mcpread/readers/read.hpp"
#include "mcpread/readers/registry.hpp"
#include "mcpread/readers/resources.hpp"

#include <boost/asio/post.hpp>
#include <spdlog/spdlog.h>

#include <chrono>
#include <exception>
#include <type_traits>
#include <variant>

#ifdef __GLIBC__
#include <malloc.h>
#endif

namespace mcpread::server {

using nlohmann::json;

namespace {

std::vector<protocol::ResourceTemplate> file_templates(const Config& config) {
  return {protocol::ResourceTemplate{
      "file:///{+path}", "file", "File or directory",
      "A file or directory inside the allowed roots, by absolute path (percent-encoded): " +
          readers::reader_nouns(true) +
          ", or a directory. Text in any charset comes back decoded to UTF-8, not numbered, at most " +
          std::to_string(config.limits.text.max_output_bytes / 1024) +
          " KB (a longer file is cut at a line end; its _meta says truncated and the read tool's "
          "offset to go on from). Images come back sized for models, PDFs as a PDF (at most " +
          std::to_string(config.limits.pdf_max_pages) +
          " pages) followed by their text, audio as stored, the other formats as text, directories as "
          "a listing. The type varies by file.",
      ""}};
}

protocol::ResourceError failure(protocol::ResourceError::Kind kind, std::string message) {
  return protocol::ResourceError{kind, std::move(message)};
}

// An answer this large came from a read that decoded, rendered or encoded (images, PDFs,
// notebooks, audio); text answers stay under it, so the common small reads never pay for a trim.
constexpr std::size_t large_answer_bytes = 256 * 1024;

// Set by a worker whose read produced a large answer; the same worker hands the freed memory back
// before passing the answer on (its large strings are mappings of their own, freed when sent).
thread_local bool release_after_answer = false;

std::size_t payload_bytes(const readers::ReadOutcome& outcome) {
  std::size_t n = 0;
  for (const auto& block : outcome.blocks)
    std::visit(
        [&](const auto& b) {
          using B = std::decay_t<decltype(b)>;
          if constexpr (std::is_same_v<B, readers::TextBlock>)
            n += b.text.size();
          else
            n += b.data.size();
        },
        block);
  return n;
}

// Libraries that decode on threads of their own (libvips) or build large structures in small
// pieces (poppler, the notebook reader) leave what they freed spread over glibc's arenas, where it
// stays resident: a process idle again after a few large reads held tens of MB. malloc_trim hands
// every free page of every arena back. The large buffers themselves (file bytes, base64, the
// answer's JSON) are mappings of their own (see main.cpp) and went back when freed.
void release_freed_memory() {
#ifdef __GLIBC__
  if (release_after_answer) malloc_trim(0);
#endif
  release_after_answer = false;
}

}  // namespace

ToolHost::ToolHost(const Config& config, RootsState& roots, boost::asio::thread_pool& pool)
    : config_(config),
      roots_(roots),
      pool_(pool),
      tools_(read_tool_definitions(config)),
      templates_(file_templates(config)) {
  IdleMemory::instance().configure(std::chrono::milliseconds(config.idle_release_ms));
}

void ToolHost::call_tool(protocol::ToolCall call, std::function<void(protocol::ToolOutcome)> done) {
  // Quick and never blocking (see may_answer_inline): no budget to arm, no hand-offs. A read
  // that would wait comes back unread and goes to the pool like any other.
  if (may_answer_inline(call) && answer(call, done, nullptr, true)) return;
  const json* path = call.arguments.contains("file_path") ? &call.arguments["file_path"]
                     : call.arguments.contains("path")    ? &call.arguments["path"]
                                                          : nullptr;
  auto budget = ReadBudget::arm(call, pool_.get_executor(), std::chrono::milliseconds(config_.task_after_ms),
                                "reading " + (path != nullptr && path->is_string() ? path->get<std::string>() : "a file"));
  if (config_.counters) config_.counters->call_queued();
  boost::asio::post(pool_, [this, call = std::move(call), done = std::move(done), budget]() {
    answer(call, done, budget, false);
  });
}

// A small plain-text file in the page cache reads in a fraction of a millisecond, less than the
// two thread hand-offs cost. Calls that may take longer whatever the file (a roots/list answer
// still awaited, calls that may become tasks, pages, OCR) go to the pool at once; the rest are
// read with `nowait` (readers/read.hpp), which hands back unread what would wait: FIFOs,
// devices, large or uncached files, other readers.
bool ToolHost::may_answer_inline(const protocol::ToolCall& call) const {
  if (!config_.inline_quick_reads || config_.task_after_ms == 0 || call.start_task) return false;
  if (!call.client_roots && !roots_.settled()) return false;
  const json& a = call.arguments;
  if (!a.is_object()) return false;
  for (const auto& [key, value] : a.items()) {
    if (key == "file_type") {
      if (!value.is_string() || (value != "auto" && value != "text")) return false;
    } else if (key != "file_path" && key != "offset" && key != "limit" && key != "column" && key != "encoding") {
      return false;  // pages, ocr_lang, unknown arguments: the pool (and its messages)
    }
  }
  const auto path = a.find("file_path");
  return path != a.end() && path->is_string();
}

bool ToolHost::answer(const protocol::ToolCall& call, const std::function<void(protocol::ToolOutcome)>& done,
                      const std::shared_ptr<ReadBudget>& budget, bool nowait) {
  IdleMemory::Activity active(IdleMemory::instance());
  const auto started = std::chrono::steady_clock::now();
  if (config_.counters && !nowait) config_.counters->call_started();
  if (budget) budget->check();  // a budget already spent (0: every read is a task)
  std::optional<json> result;
  try {
    result = read_call(call, nowait);
  } catch (const std::exception& e) {
    spdlog::error("tools/call {} failed: {}", call.name, e.what());
    result = json{{"content", json::array({{{"type", "text"},
                                         {"text", std::string("Internal error while reading: ") + e.what()}}})},
              {"isError", true}};
  }
  if (!result) return false;  // it would wait: not read, not counted
  if (config_.counters && nowait) {  // counted once it is answered here
    config_.counters->call_queued();
    config_.counters->call_started();
  }
  if (budget) budget->finished();
  release_freed_memory();  // before the answer leaves: a client that has it sees the trimmed process
  if (config_.counters) config_.counters->call_finished();
  done(std::move(*result));  // serializes the answer (base64 included) and hands it to the transport
  spdlog::debug("tools/call {} answered in {} us{}", call.name,
                std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - started)
                    .count(), nowait ? " (inline)" : "");
  return true;
}

void ToolHost::count_read(const readers::ReadOutcome& outcome) const {
  if (!config_.counters) return;
  // The kind comes from the registered readers' fixed names, never from the request.
  const auto kind = outcome.meta.find("kind");
  config_.counters->read_done(kind != outcome.meta.end() && kind->is_string() ? kind->get_ref<const std::string&>()
                                                                              : std::string("none"),
                              outcome.cancelled ? "cancelled" : outcome.is_error ? "error" : "ok");
  // OCR, as the readers report it: a PDF's `ocr_pages` (one entry per page), an image's `ocr`.
  std::size_t recognised = 0, cached = 0;
  const auto count = [&](const nlohmann::json& page) {
    ++(page.is_object() && page.value("cached", false) ? cached : recognised);
  };
  if (const auto pages = outcome.meta.find("ocr_pages"); pages != outcome.meta.end() && pages->is_array())
    for (const auto& page : *pages) count(page);
  if (const auto image = outcome.meta.find("ocr"); image != outcome.meta.end() && image->is_object()) count(*image);
  if (recognised + cached > 0) config_.counters->ocr_done(recognised, cached);
}

const HostProfile& ToolHost::profile_for(const protocol::ClientInfo& client) const {
  const HostProfile& profile = config_.host_profiles.select(client);
  std::lock_guard lock(clients_mutex_);
  if (clients_seen_.size() < 64 && clients_seen_.insert(client.name).second)
    spdlog::info("client \"{}\" {}: host profile {}", client.name, client.version, profile.name);
  return profile;
}

std::vector<protocol::ToolDefinition> ToolHost::tools_for(const protocol::ClientInfo& client) const {
  const HostProfile& profile = profile_for(client);
  std::vector<protocol::ToolDefinition> tools = tools_;
  for (auto& tool : tools) {
    tool.meta = profile.tool_meta;
    if (!profile.structured_content) tool.output_schema.reset();
  }
  return tools;
}

std::optional<json> ToolHost::read_call(const protocol::ToolCall& call, bool nowait) const {
  const auto features = protocol::features_of(call.protocol_version);
  const HostProfile& profile = profile_for(call.client);
  auto shape = [&](readers::ReadOutcome outcome) {
    count_read(outcome);
    return shape_result(std::move(outcome), profile, features, config_.structured_content);
  };
  auto parsed = parse_read_arguments(call.arguments);
  if (auto* problem = std::get_if<std::string>(&parsed)) return shape(readers::ReadOutcome::error(*problem));
  auto& request = std::get<readers::ReadRequest>(parsed);
  request.progress = call.progress;  // notifications/progress when the client asked for them

  const auto roots = roots_of(call.client_roots, call.caller, call.cancelled.get());
  if (!roots) return shape(readers::ReadOutcome::stopped());
  // An identity no --oauth-roots rule gives a directory: refused as outside the roots, not as a
  // client whose own roots left nothing (read_file's sentence for empty roots).
  if (roots->empty() && identity_has_no_roots(call.caller)) {
    const readers::AccessResult access = readers::open_in_roots(*roots, request.file_path);
    if (const auto* denied = std::get_if<readers::AccessError>(&access))
      return shape(readers::ReadOutcome::error(denied->message));
  }
  readers::CancelToken cancel = readers::CancelToken::wrap(call.cancelled);
  const auto started = std::chrono::steady_clock::now();
  const readers::ReadLimits limits = limits_for(config_.limits, profile);
  if (nowait) request.nowait = quick_read_max_bytes;
  readers::ReadOutcome outcome = readers::read_file(*roots, request, limits, cancel);
  if (outcome.deferred) return std::nullopt;
  if (profile.image_text && !outcome.is_error) add_image_text(outcome, request, limits, cancel);
  const auto micros = std::chrono::duration_cast<std::chrono::microseconds>(
                          std::chrono::steady_clock::now() - started).count();
  // With OAuth the line names who read, and is kept at info level: a team's audit trail.
  const std::string reader = who(call.caller);
  spdlog::log(reader.empty() ? spdlog::level::debug : spdlog::level::info,
              "{} {} -> {} in {} us (host profile {}, client \"{}\" {}){}", call.name, request.file_path,
              outcome.cancelled ? "cancelled" : outcome.is_error ? "error" : "ok", micros, profile.name,
              call.client.name, call.client.version, reader);
  if (payload_bytes(outcome) >= large_answer_bytes) release_after_answer = true;
  return shape(std::move(outcome));
}

void ToolHost::post_resource_work(
    const char* what, protocol::ResourceRequest request,
    std::function<void(protocol::ResourceOutcome)> done,
    protocol::ResourceOutcome (ToolHost::*work)(const protocol::ResourceRequest&) const) {
  if (config_.counters) config_.counters->call_queued();
  boost::asio::post(pool_, [this, what, work, request = std::move(request), done = std::move(done)]() {
    IdleMemory::Activity active(IdleMemory::instance());
    if (config_.counters) config_.counters->call_started();
    protocol::ResourceOutcome outcome;
    try {
      outcome = (this->*work)(request);
    } catch (const std::exception& e) {
      spdlog::error("{} {} failed: {}", what, request.uri, e.what());
      outcome = failure(protocol::ResourceError::Kind::failed,
                        std::string("Internal error while reading: ") + e.what());
    }
    release_freed_memory();
    if (config_.counters) config_.counters->call_finished();
    done(std::move(outcome));
  });
}

void ToolHost::list_resources(protocol::ResourceRequest request,
                              std::function<void(protocol::ResourceOutcome)> done) {
  post_resource_work("resources/list", std::move(request), std::move(done), &ToolHost::run_list);
}

void ToolHost::read_resource(protocol::ResourceRequest request,
                             std::function<void(protocol::ResourceOutcome)> done) {
  post_resource_work("resources/read", std::move(request), std::move(done), &ToolHost::run_read);
}

protocol::ResourceOutcome ToolHost::run_list(const protocol::ResourceRequest& request) const {
  using Kind = protocol::ResourceError::Kind;
  std::size_t position = 0;
  if (!request.cursor.empty()) {
    const auto decoded = protocol::decode_cursor("resources", request.cursor, resource_limits.max_listed);
    if (!decoded)
      return failure(Kind::invalid, "unknown \"cursor\"; pass a nextCursor from an earlier resources/list");
    position = *decoded;
  }
  const auto roots = roots_of(request.client_roots, request.caller, request.cancelled.get());
  if (!roots) return failure(Kind::failed, "The request was cancelled.");
  const auto page = readers::list_resources(*roots, position, resources_page_size, resource_limits,
                                            readers::CancelToken::wrap(request.cancelled));
  if (page.cancelled) return failure(Kind::failed, "The request was cancelled.");
  json list = json::array();
  for (const auto& entry : page.entries) {
    json resource{{"uri", entry.uri}, {"name", entry.name}, {"size", entry.size}};
    if (!entry.mime.empty()) resource["mimeType"] = entry.mime;
    list.push_back(std::move(resource));
  }
  json result{{"resources", std::move(list)}};
  if (page.more) {
    result["nextCursor"] = protocol::encode_cursor("resources", position + page.entries.size());
  } else if (page.capped) {
    result["_meta"] = {
        {"truncated", true},
        {"note", "Not every file is listed: the listing stops after " +
                     std::to_string(resource_limits.max_listed) + " files, " +
                     std::to_string(resource_limits.max_walked) + " directory entries looked at, or " +
                     std::to_string(resource_limits.max_depth) +
                     " directory levels. Other files can still be read by URI (file:///{+path})."}};
  }
  return result;
}

protocol::ResourceOutcome ToolHost::run_read(const protocol::ResourceRequest& request) const {
  using Kind = protocol::ResourceError::Kind;
  const std::string path = readers::path_from_file_uri(request.uri);
  if (path.empty())
    return failure(Kind::invalid,
                   "\"" + request.uri + "\" is not a file URI this server reads. Use "
                   "file:///absolute/path with the path percent-encoded, as resources/list gives it.");
  const auto roots = roots_of(request.client_roots, request.caller, request.cancelled.get());
  if (!roots) return failure(Kind::failed, "The request was cancelled.");
  const auto started = std::chrono::steady_clock::now();
  // Hints in the contents (the rest of a listing, of a document) name the read tool's arguments.
  auto read = readers::read_resource(*roots, path, config_.limits, readers::CancelToken::wrap(request.cancelled),
                                     hint_wording);
  const auto micros = std::chrono::duration_cast<std::chrono::microseconds>(
                          std::chrono::steady_clock::now() - started).count();
  const std::string reader = who(request.caller);
  spdlog::log(reader.empty() ? spdlog::level::debug : spdlog::level::info, "resources/read {} -> {} in {} us{}", path,
              read.status == readers::ResourceStatus::ok ? "ok" : read.message, micros, reader);
  switch (read.status) {
    case readers::ResourceStatus::ok:
      break;
    case readers::ResourceStatus::not_found:
      return failure(Kind::not_found, std::move(read.message));
    case readers::ResourceStatus::unsupported:
      return failure(Kind::invalid, std::move(read.message));
    case readers::ResourceStatus::failed:
    case readers::ResourceStatus::cancelled:
      return failure(Kind::failed, std::move(read.message));
  }
  std::size_t bytes = 0;
  for (const auto& c : read.contents) bytes += c.blob ? c.data.size() : c.text.size();
  if (bytes >= large_answer_bytes) release_after_answer = true;
  json contents = json::array();
  for (auto& c : read.contents) {
    json item{{"uri", request.uri}, {"mimeType", c.mime}};
    if (c.blob)
      item["blob"] = json::binary(std::move(c.data));
    else
      item["text"] = std::move(c.text);
    if (!c.meta.empty()) item["_meta"] = std::move(c.meta);
    contents.push_back(std::move(item));
  }
  return json{{"contents", std::move(contents)}};
}

std::shared_ptr<const readers::Roots> ToolHost::roots_of(
    const std::optional<std::vector<std::string>>& client_roots,
    const std::shared_ptr<const protocol::CallerScope>& caller, const std::atomic<bool>* cancelled) const {
  if (const auto* scope = dynamic_cast<const ReadScope*>(caller.get()))
    return RootsState::narrowed(scope->roots, client_roots);
  return client_roots ? roots_.for_client(*client_roots)
                      : roots_.current(std::chrono::milliseconds(config_.roots_wait_ms), cancelled);
}

bool ToolHost::identity_has_no_roots(const std::shared_ptr<const protocol::CallerScope>& caller) const {
  const auto* scope = dynamic_cast<const ReadScope*>(caller.get());
  if (scope == nullptr) scope = session_scope_.get();
  return scope != nullptr && scope->roots->empty();
}

std::string ToolHost::who(const std::shared_ptr<const protocol::CallerScope>& caller) const {
  const auto* scope = dynamic_cast<const ReadScope*>(caller.get());
  if (scope == nullptr) scope = session_scope_.get();
  return scope == nullptr ? std::string() : " (sub " + scope->sub + ")";
}

void ToolHost::roots_requested() { roots_.request_started(); }

void ToolHost::roots_received(const std::vector<std::string>& uris) {
  const std::string outcome = roots_.apply_client_roots(uris);
  spdlog::info("client roots: {}", outcome);
  if (client_log_) client_log_(protocol::LogLevel::info, "Client roots applied: " + outcome);
}

void ToolHost::roots_failed(const std::string& why) {
  roots_.request_failed();
  spdlog::warn("roots/list failed ({}); keeping the current roots", why);
  if (client_log_)
    client_log_(protocol::LogLevel::warning, "roots/list failed (" + why + "); keeping the current roots");
}

}  // namespace mcpread::server
