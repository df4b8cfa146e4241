#include "image/jbig2_decode.hpp"

#include "mcpread/common/lazy_library.hpp"

#include <cstdlib>
#include <cstring>
#include <new>

namespace mcpread::readers::jbig2 {
namespace {

#if defined(_WIN32)

}  // namespace

std::variant<Page, Failure> first_page(std::string_view, std::uint64_t) {
  return Failure{Failure::missing_library, "this Windows build of mcp-read has no JBIG2 decoder (jbig2dec)"};
}

#else

// jbig2dec's C interface (jbig2.h, the same in 0.18 to 0.20), declared here so that building
// needs no jbig2dec headers.
struct Image {
  std::uint32_t width, height, stride;
  std::uint8_t* data;
  int refcount;
};
struct Allocator {
  void* (*alloc)(Allocator*, std::size_t);
  void (*free)(Allocator*, void*);
  void* (*realloc)(Allocator*, void*, std::size_t);
};
struct Ctx;
using ErrorCallback = void (*)(void*, const char*, int, std::uint32_t);
constexpr int kSeverityWarning = 2, kSeverityFatal = 3;

struct Api {
  Ctx* (*ctx_new)(Allocator*, int, void*, ErrorCallback, void*, int, int) = nullptr;
  Allocator* (*ctx_free)(Ctx*) = nullptr;
  int (*data_in)(Ctx*, const unsigned char*, std::size_t) = nullptr;
  Image* (*page_out)(Ctx*) = nullptr;
  void (*release_page)(Ctx*, Image*) = nullptr;
  int (*complete_page)(Ctx*) = nullptr;
};

const Api* api(std::string* error) {
  static const LazyLibrary<Api> lib(
      {.needs = "reading JBIG2 images needs jbig2dec (Debian package libjbig2dec0)",
       .candidates = {"libjbig2dec.so.0"}},
      [](SymbolBinder& bind, Api& a) {
        return bind(&a.ctx_new, "jbig2_ctx_new_imp") && bind(&a.ctx_free, "jbig2_ctx_free") &&
               bind(&a.data_in, "jbig2_data_in") && bind(&a.page_out, "jbig2_page_out") &&
               bind(&a.release_page, "jbig2_release_page") && bind(&a.complete_page, "jbig2_complete_page");
      });
  return lib.get(error);
}

// An allocator that refuses past a budget: jbig2dec allocates what a file's segments claim (a
// page, symbol dictionaries, pattern dictionaries), and a few hostile bytes can claim gigabytes.
// Each block carries its size in front, so that free and realloc can count it back.
struct BudgetAllocator {
  Allocator base;  // first: jbig2dec hands back this address
  std::size_t budget;
  std::size_t used = 0;
  bool refused = false;
};
constexpr std::size_t kHeader = alignof(std::max_align_t);

void* budget_alloc(Allocator* a, std::size_t size) {
  auto* b = reinterpret_cast<BudgetAllocator*>(a);
  if (size > b->budget - b->used) {
    b->refused = true;
    return nullptr;
  }
  auto* block = static_cast<unsigned char*>(std::malloc(size + kHeader));
  if (block == nullptr) return nullptr;
  std::memcpy(block, &size, sizeof size);
  b->used += size;
  return block + kHeader;
}

void budget_free(Allocator* a, void* p) {
  if (p == nullptr) return;
  auto* b = reinterpret_cast<BudgetAllocator*>(a);
  unsigned char* block = static_cast<unsigned char*>(p) - kHeader;
  std::size_t size = 0;
  std::memcpy(&size, block, sizeof size);
  b->used -= size;
  std::free(block);
}

void* budget_realloc(Allocator* a, void* p, std::size_t size) {
  if (p == nullptr) return budget_alloc(a, size);
  auto* b = reinterpret_cast<BudgetAllocator*>(a);
  unsigned char* block = static_cast<unsigned char*>(p) - kHeader;
  std::size_t old = 0;
  std::memcpy(&old, block, sizeof old);
  if (size > old && size - old > b->budget - b->used) {
    b->refused = true;
    return nullptr;
  }
  auto* grown = static_cast<unsigned char*>(std::realloc(block, size + kHeader));
  if (grown == nullptr) return nullptr;
  std::memcpy(grown, &size, sizeof size);
  b->used = b->used - old + size;
  return grown + kHeader;
}

// jbig2dec's first fatal message (else its last warning): why a file gave no page.
struct Messages {
  std::string fatal, warning;
};

void on_message(void* data, const char* msg, int severity, std::uint32_t) {
  auto* m = static_cast<Messages*>(data);
  if (msg == nullptr) return;
  if (severity >= kSeverityFatal && m->fatal.empty()) m->fatal = msg;
  else if (severity == kSeverityWarning) m->warning = msg;
}

// A context for the library that is loaded: jbig2_ctx_new checks that the caller was built
// against its own minor version, so each release this code fits is offered in turn.
Ctx* new_context(const Api& a, BudgetAllocator* alloc, Messages* messages) {
  for (const int minor : {19, 20, 18}) {
    if (Ctx* ctx = a.ctx_new(&alloc->base, 0, nullptr, on_message, messages, 0, minor)) {
      messages->fatal.clear();
      return ctx;
    }
  }
  return nullptr;
}

}  // namespace

std::variant<Page, Failure> first_page(std::string_view bytes, std::uint64_t max_pixels) {
  std::string error;
  const Api* a = api(&error);
  if (a == nullptr) return Failure{Failure::missing_library, error};
  // A page of max_pixels (one bit each), twice over for the regions composed onto it, and room
  // for the dictionaries a real file carries.
  BudgetAllocator alloc{{budget_alloc, budget_free, budget_realloc}, static_cast<std::size_t>(max_pixels / 4) + (64u << 20)};
  Messages messages;
  Ctx* ctx = new_context(*a, &alloc, &messages);
  if (ctx == nullptr)
    return Failure{Failure::missing_library, "the installed jbig2dec is a release mcp-read does not know (" +
                                                 (messages.fatal.empty() ? std::string("no context") : messages.fatal) +
                                                 "); install jbig2dec 0.18 to 0.20"};
  const int in = a->data_in(ctx, reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size());
  Image* image = a->page_out(ctx);
  if (image == nullptr && in >= 0 && !alloc.refused) {
    a->complete_page(ctx);  // a file cut off before its end-of-page segment: what was decoded
    image = a->page_out(ctx);
  }
  Page page;
  if (image != nullptr) {
    page.width = image->width;
    page.height = image->height;
    page.pages = 1;
    const std::uint64_t pixels = std::uint64_t{image->width} * image->height;
    if (pixels > 0 && pixels <= max_pixels && image->data != nullptr) {
      const std::size_t row = (image->width + 7) / 8;
      page.pbm = "P4\n" + std::to_string(image->width) + " " + std::to_string(image->height) + "\n";
      const std::size_t header = page.pbm.size();
      page.pbm.resize(header + row * image->height);
      for (std::uint32_t y = 0; y < image->height; ++y)
        std::memcpy(page.pbm.data() + header + row * y, image->data + std::size_t{image->stride} * y, row);
    }
    a->release_page(ctx, image);
    while (Image* next = a->page_out(ctx)) {
      ++page.pages;
      a->release_page(ctx, next);
    }
  }
  a->ctx_free(ctx);

  if (alloc.refused || (page.pages > 0 && std::uint64_t{page.width} * page.height > max_pixels))
    return Failure{Failure::too_large, page.pages > 0 ? "its page is " + std::to_string(page.width) + "\u00D7" +
                                                          std::to_string(page.height) + " px"
                                                      : "it asks for more memory than a page within the limit needs"};
  if (page.pbm.empty()) {
    std::string why = !messages.fatal.empty() ? messages.fatal : !messages.warning.empty() ? messages.warning
                                                                                           : std::string("it holds no page");
    if (page.pages > 0 && messages.fatal.empty()) why = "its first page is empty (0 pixels)";
    return Failure{Failure::corrupt, "jbig2dec reports: " + why};
  }
  return page;
}

#endif

}  // namespace mcpread::readers::jbig2
