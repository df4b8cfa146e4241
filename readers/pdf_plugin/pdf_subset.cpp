// Writing a PDF that holds only some pages of another, with qpdf; and PNG encoding with libpng.
#include "plugin_internal.hpp"

#include <png.h>
#include <poppler-document.h>
#include <qpdf/Buffer.hh>
#include <qpdf/QPDF.hh>
#include <qpdf/QPDFObjectHandle.hh>
#include <qpdf/QPDFPageDocumentHelper.hh>
#include <qpdf/QPDFPageObjectHelper.hh>
#include <qpdf/QPDFWriter.hh>

#include <memory>
#include <vector>

mcpread_pdf_doc::mcpread_pdf_doc() = default;
mcpread_pdf_doc::~mcpread_pdf_doc() = default;

namespace mcpread_pdf {
namespace {

// The source's title, carried over so that the subset still names its document.
void copy_title(QPDF& in, QPDF& out) {
  QPDFObjectHandle info = in.getTrailer().getKey("/Info");
  if (!info.isDictionary()) return;
  QPDFObjectHandle title = info.getKey("/Title");
  if (!title.isString()) return;
  QPDFObjectHandle dict = QPDFObjectHandle::newDictionary();
  dict.replaceKey("/Title", QPDFObjectHandle::newUnicodeString(title.getUTF8Value()));
  out.getTrailer().replaceKey("/Info", out.makeIndirectObject(dict));
}

// The pages asked for, found by /Count (find_page); empty when the tree does not lead to one of
// them.
std::vector<QPDFObjectHandle> pages_by_count(QPDF& q, const int* pages, std::size_t count) {
  std::vector<QPDFObjectHandle> found;
  found.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    QPDFObjectHandle page = find_page(q, pages[i]);
    if (!page.isDictionary() || !page.isIndirect()) return {};
    found.push_back(page);
  }
  return found;
}

}  // namespace

QPDF& qpdf_of(mcpread_pdf_doc* doc) {
  if (!doc->qpdf) {
    auto q = std::make_unique<QPDF>();
    q->setSuppressWarnings(true);  // recovery warnings would go to the server's stderr
    q->processMemoryFile("PDF", doc->data, doc->size, doc->password.c_str());
    doc->qpdf = std::move(q);
  }
  return *doc->qpdf;
}

bool encode_png(const unsigned char* rgb, int width, int height, int stride, std::string* out,
                std::string* why) {
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  image.width = static_cast<png_uint_32>(width);
  image.height = static_cast<png_uint_32>(height);
  image.format = PNG_FORMAT_RGB;
  image.flags = PNG_IMAGE_FLAG_FAST;
  // Room for the worst case, left uninitialised: zero-filling megabytes per page costs more
  // than the compression.
  png_alloc_size_t size = PNG_IMAGE_PNG_SIZE_MAX(image);
  const std::unique_ptr<char[]> buffer(new char[size]);
  if (png_image_write_to_memory(&image, buffer.get(), &size, 0, rgb, stride, nullptr) == 0) {
    *why = image.message;
    png_image_free(&image);
    return false;
  }
  out->assign(buffer.get(), size);
  return true;
}

}  // namespace mcpread_pdf

using namespace mcpread_pdf;

extern "C" __attribute__((visibility("default"))) int mcpread_pdf_write_subset(
    mcpread_pdf_doc* doc, const int* pages, std::size_t count, mcpread_pdf_sink sink, void* ctx,
    char* error, std::size_t error_size) {
  return guarded(error, error_size, [&]() -> int {
    if (doc == nullptr || sink == nullptr || (pages == nullptr && count > 0)) {
      set_error(error, error_size, "invalid arguments");
      return MCPREAD_PDF_FAILED;
    }
    std::vector<bool> seen(static_cast<std::size_t>(doc->pages) + 1);
    for (std::size_t i = 0; i < count; ++i) {
      if (!valid_page(doc, pages[i], error, error_size)) return MCPREAD_PDF_BAD_PAGE;
      if (seen[static_cast<std::size_t>(pages[i])]) {
        set_error(error, error_size, "page " + std::to_string(pages[i]) + " is listed twice");
        return MCPREAD_PDF_BAD_PAGE;
      }
      seen[static_cast<std::size_t>(pages[i])] = true;
    }
    QPDF& in = qpdf_of(doc);
    QPDF out;
    out.setSuppressWarnings(true);
    out.emptyPDF();
    QPDFPageDocumentHelper target(out);
    // The pages are found by /Count, as viewers find them, resolving only the nodes on the way,
    // and copied without qpdf's copyForeignObject, which walks the whole tree (getAllPages:
    // 150 ms of a first subset of memman.pdf's 615 pages). A tree that does not lead to them
    // by /Count is walked whole.
    const std::vector<QPDFObjectHandle> found = pages_by_count(in, pages, count);
    if (!found.empty() || count == 0) {
      for (const QPDFObjectHandle& copy : copy_pages(out, found)) target.addPage(QPDFPageObjectHelper(copy), false);
    } else {
      std::vector<QPDFPageObjectHelper> source = QPDFPageDocumentHelper(in).getAllPages();
      for (std::size_t i = 0; i < count; ++i) {
        const auto index = static_cast<std::size_t>(pages[i] - 1);
        if (index >= source.size()) {
          set_error(error, error_size,
                    "qpdf finds " + std::to_string(source.size()) + " pages where poppler finds " +
                        std::to_string(doc->pages));
          return MCPREAD_PDF_DAMAGED;
        }
        target.addPage(source[index], false);  // pushes every page's inherited attributes first
      }
    }
    copy_title(in, out);
    QPDFWriter writer(out);
    writer.setOutputMemory();
    writer.setMinimumPDFVersion(in.getPDFVersion());
    writer.setDecodeLevel(qpdf_dl_none);  // stream data copied as stored (decrypted), not recoded
    writer.setObjectStreamMode(qpdf_o_generate);
    // The /ID is derived from the content, not the clock: the same pages give the same bytes on
    // every call (read is idempotent, and clients may cache by content).
    writer.setDeterministicID(true);
    writer.write();
    // Ours to delete; getBufferSharedPointer is newer than qpdf 10.1 (the portable bundle's).
    const std::unique_ptr<Buffer> buffer(writer.getBuffer());
    sink(ctx, reinterpret_cast<const char*>(buffer->getBuffer()), buffer->getSize());
    return MCPREAD_PDF_OK;
  });
}
