#pragma once
// Prompts (prompts/list, prompts/get) and argument completion (completion/complete), whichever
// era serves them: the legacy session and the stateless dispatcher share these.
#include "mcpread/protocol/server_handler.hpp"

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace mcpread::protocol {

bool offers_prompts(const ServerHandler& handler);
// Whether `method` is one of the three and `handler` offers it.
bool is_prompt_method(std::string_view method);
bool serves_prompt_method(const ServerHandler& handler, std::string_view method);

// One page of prompts/list for `features`; sets `error` for an unknown cursor.
json list_prompts(const std::vector<PromptDefinition>& prompts, const Message& m,
                  const VersionFeatures& features, std::optional<MessageError>* error);

// Serves prompts/get or completion/complete: checks the parameters against the handler's
// prompts, hands the request to the handler and calls `respond` exactly once with the response
// (a result or an error), from any thread. Exceptions from the handler become -32603. `attach`,
// when set, completes a prompts/get request before the handler gets it (a stateless input round).
void serve_prompt_request(ServerHandler& handler, const Message& m, const std::string& version,
                          std::shared_ptr<std::atomic<bool>> cancelled,
                          std::function<void(json response)> respond,
                          const std::function<void(PromptRequest&)>& attach = {});

}  // namespace mcpread::protocol
