#include "codec/manifest_files.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

namespace wasched::codec::internal {
namespace {

// TempPath: a file holding `text`, removed at the end.
class TempPath {
 public:
  explicit TempPath(const std::string& text) {
    path_ = (std::filesystem::temp_directory_path() /
             ("wasched-manifest-files-test-" + std::to_string(getpid()) + ".json"))
                .string();
    std::ofstream(path_, std::ios::binary) << text;
  }
  ~TempPath() { std::filesystem::remove(path_); }
  [[nodiscard]] const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// A file is handed out mapped; dropping the pages of its consumed part (what the loader does
// as a List's items decode) must not change what the text reads afterwards.
TEST(ManifestFilesTest, ReleasedTextOfAFileReadsTheSame) {
  std::string content;
  for (int i = 0; content.size() < 3 * 65536; ++i) content += "# line " + std::to_string(i) + "\n";
  const TempPath file(content);
  InputErrors errors;
  std::vector<std::string> warnings;
  std::istringstream no_stdin;
  int calls = 0;
  ForEachManifestText({file.path()}, no_stdin, &errors, &warnings,
                      [&](const std::string&, std::string_view text) {
                        ++calls;
                        ASSERT_EQ(text, content);
                        ReleaseConsumedText(text, text.size() / 2);
                        EXPECT_EQ(text, content);
                        ReleaseConsumedText(text, text.size());
                        EXPECT_EQ(text, content);
                      });
  EXPECT_EQ(calls, 1);
  EXPECT_TRUE(errors.empty());
}

// Text that is not a file mapping (stdin, a string) is never dropped: it would read as zeros.
TEST(ManifestFilesTest, ReleasingTextThatIsNotAFileDoesNothing) {
  std::string content(4 * 65536, 'x');
  std::istringstream in(content);
  InputErrors errors;
  std::vector<std::string> warnings;
  int calls = 0;
  ForEachManifestText({"-"}, in, &errors, &warnings,
                      [&](const std::string&, std::string_view text) {
                        ++calls;
                        ReleaseConsumedText(text, text.size());
                        EXPECT_EQ(text, content);
                      });
  EXPECT_EQ(calls, 1);
  const std::string heap(4 * 65536, 'y');
  ReleaseConsumedText(heap, heap.size());
  EXPECT_EQ(heap, std::string(4 * 65536, 'y'));
}

}  // namespace
}  // namespace wasched::codec::internal
