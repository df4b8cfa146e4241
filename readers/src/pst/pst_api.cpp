#include "pst/pst_api.hpp"

#if !defined(_WIN32)
#include "mcpread/common/lazy_library.hpp"

namespace mcpread::readers::pst {

const Api* api(std::string* error) {
  static const LazyLibrary<Api> lib(
      {.needs = "Reading Outlook data files needs libpff (Debian package libpff1)", .candidates = {"libpff.so.1"}},
      [](SymbolBinder& bind, Api& a) {
        return bind(&a.file_initialize, "libpff_file_initialize") && bind(&a.file_open, "libpff_file_open") &&
               bind(&a.file_close, "libpff_file_close") && bind(&a.file_free, "libpff_file_free") &&
               bind(&a.root_folder, "libpff_file_get_root_folder") &&
               bind(&a.folder_count, "libpff_folder_get_number_of_sub_folders") &&
               bind(&a.folder, "libpff_folder_get_sub_folder") &&
               bind(&a.folder_name_size, "libpff_folder_get_utf8_name_size") &&
               bind(&a.folder_name, "libpff_folder_get_utf8_name") &&
               bind(&a.message_count, "libpff_folder_get_number_of_sub_messages") &&
               bind(&a.message, "libpff_folder_get_sub_message") &&
               bind(&a.string_size, "libpff_message_get_entry_value_utf8_string_size") &&
               bind(&a.string, "libpff_message_get_entry_value_utf8_string") &&
               bind(&a.delivery_time, "libpff_message_get_delivery_time") &&
               bind(&a.submit_time, "libpff_message_get_client_submit_time") &&
               bind(&a.plain_size, "libpff_message_get_plain_text_body_size") &&
               bind(&a.plain, "libpff_message_get_plain_text_body") &&
               bind(&a.html_size, "libpff_message_get_html_body_size") && bind(&a.html, "libpff_message_get_html_body") &&
               bind(&a.attachment_count, "libpff_message_get_number_of_attachments") &&
               bind(&a.attachment, "libpff_message_get_attachment") &&
               bind(&a.attachment_size, "libpff_attachment_get_data_size") &&
               bind(&a.item_string_size, "libpff_item_get_entry_value_utf8_string_size") &&
               bind(&a.item_string, "libpff_item_get_entry_value_utf8_string") && bind(&a.item_free, "libpff_item_free");
      });
  return lib.get(error);
}

}  // namespace mcpread::readers::pst
#endif
