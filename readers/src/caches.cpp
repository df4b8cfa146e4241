#include "mcpread/readers/caches.hpp"

#include "archive/archive_cache.hpp"
#include "package/part_cache.hpp"
#include "pdf/pdf_open.hpp"

namespace mcpread::readers {

std::size_t release_caches() {
  return package::PartCache::instance().release() + pdf::OpenPdfCache::instance().release() +
         archive::ArchiveCache::instance().release();
}

}  // namespace mcpread::readers
