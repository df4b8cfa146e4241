#if !defined(_WIN32)
#include "djvu/djvu_api.hpp"

#include "mcpread/common/lazy_library.hpp"

namespace mcpread::readers::djvu {

const Api* api(std::string* error) {
  static const LazyLibrary<Api> lib(
      {.needs = "reading DjVu documents needs djvulibre (Debian package libdjvulibre21)",
       .candidates = {"libdjvulibre.so.21"}},
      [](SymbolBinder& bind, Api& a) {
        return bind(&a.context_create, "ddjvu_context_create") &&
               bind(&a.context_release, "ddjvu_context_release") &&
               bind(&a.cache_set_size, "ddjvu_cache_set_size") && bind(&a.message_peek, "ddjvu_message_peek") &&
               bind(&a.message_pop, "ddjvu_message_pop") && bind(&a.job_status, "ddjvu_job_status") &&
               bind(&a.job_release, "ddjvu_job_release") && bind(&a.document_create, "ddjvu_document_create") &&
               bind(&a.document_job, "ddjvu_document_job") && bind(&a.stream_write, "ddjvu_stream_write") &&
               bind(&a.stream_close, "ddjvu_stream_close") &&
               bind(&a.document_get_pagenum, "ddjvu_document_get_pagenum") &&
               bind(&a.document_get_pageinfo, "ddjvu_document_get_pageinfo_imp") &&
               bind(&a.document_get_pagetext, "ddjvu_document_get_pagetext") &&
               bind(&a.document_get_anno, "ddjvu_document_get_anno") &&
               bind(&a.miniexp_release, "ddjvu_miniexp_release") &&
               bind(&a.anno_get_metadata_keys, "ddjvu_anno_get_metadata_keys") &&
               bind(&a.anno_get_metadata, "ddjvu_anno_get_metadata") &&
               bind(&a.page_create_by_pageno, "ddjvu_page_create_by_pageno") &&
               bind(&a.page_job, "ddjvu_page_job") && bind(&a.page_get_width, "ddjvu_page_get_width") &&
               bind(&a.page_get_height, "ddjvu_page_get_height") && bind(&a.page_render, "ddjvu_page_render") &&
               bind(&a.format_create, "ddjvu_format_create") &&
               bind(&a.format_set_row_order, "ddjvu_format_set_row_order") &&
               bind(&a.format_set_y_direction, "ddjvu_format_set_y_direction") &&
               bind(&a.format_release, "ddjvu_format_release") && bind(&a.to_name, "miniexp_to_name") &&
               bind(&a.stringp, "miniexp_stringp") && bind(&a.to_str, "miniexp_to_str");
      });
  return lib.get(error);
}

}  // namespace mcpread::readers::djvu
#endif
