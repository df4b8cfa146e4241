// ChildProcess: what does not depend on the system (os/child_process_*.cpp hold the rest).
#include "child_process.hpp"

#include <fstream>
#include <sstream>

namespace mcpread::test {

std::string ChildProcess::stderr_text() const {
  std::ifstream in(stderr_path_, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace mcpread::test
