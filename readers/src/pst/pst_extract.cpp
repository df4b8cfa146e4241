// extract(): libpff in a child process. The message it sends back is built on every platform, for
// the tests and the fuzz target.
#include "pst/pst_extract.hpp"

#include "child_message.hpp"

#if !defined(_WIN32)
#include "child_process.hpp"
#include "mcpread/common/platform.hpp"
#include "pst/pst_api.hpp"

#include <chrono>
#endif

namespace mcpread::readers::pst {
namespace {

using child_message::put32;
using child_message::put_text;

void put64(std::string& out, std::uint64_t v) {
  put32(out, static_cast<std::uint32_t>(v & 0xFFFFFFFFu));
  put32(out, static_cast<std::uint32_t>(v >> 32));
}
std::uint64_t get64(child_message::Cursor& in) {
  const std::uint64_t low = in.u32();
  return low | (std::uint64_t{in.u32()} << 32);
}

void put_line(std::string& out, const MessageLine& m) {
  put_text(out, m.subject);
  put_text(out, m.from);
  put64(out, m.filetime);
}
MessageLine get_line(child_message::Cursor& in) {
  MessageLine m;
  m.subject = in.text();
  m.from = in.text();
  m.filetime = get64(in);
  return m;
}

#if !defined(_WIN32)

// MAPI property tags libpff looks up (its mapi.h names them LIBPFF_ENTRY_TYPE_...).
constexpr std::uint32_t kSubject = 0x0037, kSenderName = 0x0c1a, kSenderAddress = 0x0c1f, kDisplayTo = 0x0e04,
                        kDisplayCc = 0x0e03, kLongFileName = 0x3707, kShortFileName = 0x3704;
constexpr std::size_t kMaxStoredBody = 64u << 20;  // a body longer than this is not fetched at all

// libpff's strings end with a NUL that its sizes count; `size` 0 or over `most`: none taken.
std::string take(std::size_t size, std::size_t most, const auto& fetch) {
  if (size == 0 || size > most) return {};
  std::string s(size, '\0');
  if (fetch(reinterpret_cast<std::uint8_t*>(s.data()), size) != 1) return {};
  s.resize(s.find('\0') == std::string::npos ? s.size() : s.find('\0'));
  return s;
}

std::string message_string(const Api& a, libpff_item_t* item, std::uint32_t type) {
  std::size_t size = 0;
  if (a.string_size(item, type, &size, nullptr) != 1) return {};
  std::string s = take(size, 1u << 20, [&](std::uint8_t* p, std::size_t n) { return a.string(item, type, p, n, nullptr); });
  if (s.size() > kMaxFieldBytes) s.resize(kMaxFieldBytes);
  return s;
}

std::string folder_name(const Api& a, libpff_item_t* folder) {
  std::size_t size = 0;
  if (a.folder_name_size(folder, &size, nullptr) != 1) return {};
  return take(size, kMaxFieldBytes, [&](std::uint8_t* p, std::size_t n) { return a.folder_name(folder, p, n, nullptr); });
}

MessageLine message_line(const Api& a, libpff_item_t* m) {
  MessageLine line;
  line.subject = message_string(a, m, kSubject);
  // A subject may start with Outlook's prefix marker (0x01 and the prefix's length).
  while (!line.subject.empty() && static_cast<unsigned char>(line.subject.front()) < 0x20) line.subject.erase(0, 1);
  line.from = message_string(a, m, kSenderName);
  if (a.delivery_time(m, &line.filetime, nullptr) != 1 || line.filetime == 0)
    if (a.submit_time(m, &line.filetime, nullptr) != 1) line.filetime = 0;
  return line;
}

struct Walk {
  const Api& a;
  Extracted& out;
  std::size_t listed = 0;
};

void list_folder(Walk& w, libpff_item_t* folder, const std::string& path, int depth) {
  int subfolders = 0, messages = 0;
  if (depth > 0) {
    if (w.out.folders.size() >= kMaxFolders) {
      w.out.cut = true;
      return;
    }
    Folder f;
    f.path = path;
    f.depth = depth - 1;
    if (w.a.message_count(folder, &messages, nullptr) != 1 || messages < 0) messages = 0;
    f.count = static_cast<std::uint32_t>(messages);
    for (int i = 0; i < messages; ++i) {
      if (w.listed >= kMaxListed) {
        w.out.cut = true;
        break;
      }
      libpff_item_t* m = nullptr;
      if (w.a.message(folder, i, &m, nullptr) != 1 || m == nullptr) continue;
      f.messages.push_back(message_line(w.a, m));
      ++w.listed;
      w.a.item_free(&m, nullptr);
    }
    w.out.folders.push_back(std::move(f));
  }
  if (depth >= kMaxDepth) return;
  if (w.a.folder_count(folder, &subfolders, nullptr) != 1) return;
  for (int i = 0; i < subfolders; ++i) {
    libpff_item_t* sub = nullptr;
    if (w.a.folder(folder, i, &sub, nullptr) != 1 || sub == nullptr) continue;
    const std::string name = component(folder_name(w.a, sub));
    list_folder(w, sub, path.empty() ? name : path + "/" + name, depth + 1);
    w.a.item_free(&sub, nullptr);
  }
}

// The subfolder of `folder` whose component is `name`; nullptr when none.
libpff_item_t* subfolder(const Api& a, libpff_item_t* folder, const std::string& name) {
  int count = 0;
  if (a.folder_count(folder, &count, nullptr) != 1) return nullptr;
  for (int i = 0; i < count; ++i) {
    libpff_item_t* sub = nullptr;
    if (a.folder(folder, i, &sub, nullptr) != 1 || sub == nullptr) continue;
    if (component(folder_name(a, sub)) == name) return sub;
    a.item_free(&sub, nullptr);
  }
  return nullptr;
}

void read_one(const Api& a, libpff_item_t* m, Message& out) {
  out.line = message_line(a, m);
  out.to = message_string(a, m, kDisplayTo);
  out.cc = message_string(a, m, kDisplayCc);
  out.sender_address = message_string(a, m, kSenderAddress);
  std::size_t size = 0;
  const auto body = [&](auto get) {
    out.body = take(size, kMaxStoredBody, get);
    out.body_cut = size > kMaxStoredBody || out.body.size() > kMaxBodyBytes;
    if (out.body.size() > kMaxBodyBytes) out.body.resize(kMaxBodyBytes);
  };
  if (a.plain_size(m, &size, nullptr) == 1 && size > 1) {
    body([&](std::uint8_t* p, std::size_t n) { return a.plain(m, p, n, nullptr); });
  } else if (a.html_size(m, &size, nullptr) == 1 && size > 1) {
    out.html = true;
    body([&](std::uint8_t* p, std::size_t n) { return a.html(m, p, n, nullptr); });
  }
  int count = 0;
  if (a.attachment_count(m, &count, nullptr) != 1) count = 0;
  for (int i = 0; i < count && out.attachments.size() < kMaxAttachments; ++i) {
    libpff_item_t* at = nullptr;
    if (a.attachment(m, i, &at, nullptr) != 1 || at == nullptr) continue;
    Attached one;
    for (const std::uint32_t type : {kLongFileName, kShortFileName}) {
      std::size_t n = 0;
      if (!one.name.empty() || a.item_string_size(at, 0, type, &n, 0, nullptr) != 1) continue;
      one.name = take(n, kMaxFieldBytes,
                      [&](std::uint8_t* p, std::size_t k) { return a.item_string(at, 0, type, p, k, 0, nullptr); });
    }
    size64_t data = 0;
    if (a.attachment_size(at, &data, nullptr) == 1) one.size = data;
    out.attachments.push_back(std::move(one));
    a.item_free(&at, nullptr);
  }
}

// The child's work: open, then list or read the message asked for.
std::string work(const Api& a, const std::string& path, bool listing, const std::vector<std::string>& folder,
                 std::uint32_t number) {
  libpff_file_t* file = nullptr;
  if (a.file_initialize(&file, nullptr) != 1) return "E";
  if (a.file_open(file, path.c_str(), kOpenRead, nullptr) != 1) return "E";
  libpff_item_t* root = nullptr;
  if (a.root_folder(file, &root, nullptr) != 1 || root == nullptr) return "E";
  Extracted out;
  if (listing) {
    Walk walk{a, out};
    list_folder(walk, root, {}, 0);
  } else {
    libpff_item_t* at = root;
    for (const std::string& name : folder) {
      libpff_item_t* next = subfolder(a, at, name);
      if (at != root) a.item_free(&at, nullptr);
      at = next;
      if (at == nullptr) break;
    }
    int count = 0;
    libpff_item_t* m = nullptr;
    if (at != nullptr) out.folder_messages = a.message_count(at, &count, nullptr) == 1 && count > 0 ? count : 0;
    if (number >= 1 && number <= out.folder_messages && a.message(at, static_cast<int>(number - 1), &m, nullptr) == 1 &&
        m != nullptr) {
      out.found = true;
      read_one(a, m, out.message);
    }
  }
  // The process ends here: what libpff holds is freed with it.
  return "M" + write_message(out);
}

#endif

}  // namespace

std::string component(std::string_view name) {
  std::string out;
  for (char c : name) out += c == '/' ? std::string("\xE2\x88\x95") : std::string(1, c);
  return out;
}

std::string write_message(const Extracted& e) {
  std::string out;
  put32(out, (e.cut ? 1u : 0u) | (e.found ? 2u : 0u) | (e.message.html ? 4u : 0u) | (e.message.body_cut ? 8u : 0u));
  put32(out, static_cast<std::uint32_t>(e.folder_messages + 1));
  put32(out, static_cast<std::uint32_t>(e.folders.size()));
  for (const Folder& f : e.folders) {
    put_text(out, f.path);
    put32(out, static_cast<std::uint32_t>(f.depth));
    put32(out, f.count);
    put32(out, static_cast<std::uint32_t>(f.messages.size()));
    for (const MessageLine& m : f.messages) put_line(out, m);
  }
  const Message& m = e.message;
  put_line(out, m.line);
  put_text(out, m.to);
  put_text(out, m.cc);
  put_text(out, m.sender_address);
  put_text(out, m.body);
  put32(out, static_cast<std::uint32_t>(m.attachments.size()));
  for (const Attached& a : m.attachments) {
    put_text(out, a.name);
    put64(out, a.size);
  }
  return out;
}

bool read_message(std::string_view bytes, Extracted* out) {
  child_message::Cursor in(bytes);
  Extracted e;
  const std::uint32_t flags = in.u32();
  e.cut = (flags & 1u) != 0;
  e.found = (flags & 2u) != 0;
  e.message.html = (flags & 4u) != 0;
  e.message.body_cut = (flags & 8u) != 0;
  e.folder_messages = static_cast<std::int64_t>(in.u32()) - 1;
  const std::uint32_t folders = in.count(16);  // a path's length, depth, count, messages
  if (folders > kMaxFolders) return false;
  std::size_t listed = 0;
  for (std::uint32_t i = 0; i < folders && in.ok(); ++i) {
    Folder f;
    f.path = in.text();
    f.depth = in.at_most(kMaxDepth);
    f.count = in.u32();
    const std::uint32_t messages = in.count(16);  // two lengths and a time
    listed += messages;
    if (listed > kMaxListed) return false;
    for (std::uint32_t j = 0; j < messages && in.ok(); ++j) f.messages.push_back(get_line(in));
    e.folders.push_back(std::move(f));
  }
  Message& m = e.message;
  m.line = get_line(in);
  m.to = in.text();
  m.cc = in.text();
  m.sender_address = in.text();
  m.body = in.text();
  const std::uint32_t attachments = in.count(12);
  if (attachments > kMaxAttachments) return false;
  for (std::uint32_t i = 0; i < attachments && in.ok(); ++i) {
    Attached a;
    a.name = in.text();
    a.size = get64(in);
    m.attachments.push_back(std::move(a));
  }
  if (!in.done() || flags > 15u || m.body.size() > kMaxBodyBytes) return false;
  *out = std::move(e);
  return true;
}

#if !defined(_WIN32)

bool extract(int fd, bool listing, const std::vector<std::string>& folder, std::uint32_t number, Extracted* out,
             std::string* error, const CancelToken& cancel) {
  const Api* a = api(error);  // loaded here, once, so that every child has it
  if (a == nullptr) return false;
  const std::string path = platform::descriptor_path(fd);
  if (path.empty()) {
    *error = "libpff opens files by name, and this system has no /proc/self/fd to name the open file by";
    return false;
  }
  child_process::Limits limits;
  limits.cpu_seconds = 30;
  limits.wall = std::chrono::seconds(60);
  limits.extra_memory = 1ull << 30;
  limits.keep_descriptor = fd;
  const child_process::Outcome child =
      child_process::run([&] { return work(*a, path, listing, folder, number); }, limits, cancel);
  constexpr std::string_view garbled = "libpff's process sent back what is not an Outlook data file's contents";
  const auto contents = child.contents(
      "libpff", limits, ": the Outlook data file is damaged",
      "libpff cannot open it: it is not an Outlook data file (.pst, .ost), or it is damaged", garbled, error);
  if (!contents) return false;
  if (!read_message(*contents, out)) {
    *error = garbled;
    return false;
  }
  return true;
}

#else

bool extract(int, bool, const std::vector<std::string>&, std::uint32_t, Extracted*, std::string* error,
             const CancelToken&) {
  // No fork, and no libpff in the Windows build: refused rather than parsed in the server.
  *error = "the Windows build of mcp-read does not include libpff, which reads Outlook data files; read the file on Linux";
  return false;
}

#endif

}  // namespace mcpread::readers::pst
