// SPDX-License-Identifier: MIT
#include "core/comparison/bundleverifier.h"

#include <algorithm>
#include <cerrno>
#include <dirent.h>
#include <fcntl.h>
#include <map>
#include <sys/stat.h>
#include <unistd.h>

#include "core/analysis/sha256.h"
#include "core/compat/rustformat.h"
#include "core/io/inputerror.h"

namespace TraceInspector {

namespace {

/// Rust's Path::components of a relative '/'-separated path, as strings: empty and inner
/// `.` components dropped, a leading `.` kept (it is CurDir).
std::vector<std::string> components(const std::string &path)
{
    std::vector<std::string> parts;
    std::size_t start = 0;
    bool first = true;
    while (start <= path.size()) {
        std::size_t end = path.find('/', start);
        if (end == std::string::npos)
            end = path.size();
        std::string part = path.substr(start, end - start);
        const bool empty = part.empty(); // read before the move below (clang-tidy use-after-move)
        if (!empty && !(part == "." && !first))
            parts.push_back(std::move(part));
        if (!empty || end != path.size())
            first = false;
        start = end + 1;
    }
    return parts;
}

/// Rust's Ord for Path: component by component, each compared byte-wise.
bool pathLess(const std::string &a, const std::string &b)
{
    const auto ca = components(a);
    const auto cb = components(b);
    return std::lexicographical_compare(ca.begin(), ca.end(), cb.begin(), cb.end());
}

bool samePath(const std::string &a, const std::string &b)
{
    return components(a) == components(b);
}

struct FileDigest {
    std::uint64_t bytes = 0;
    std::string sha256;
};

/// Reads a whole file and hashes it; on failure returns the io error text.
std::string describeFile(const std::string &path, FileDigest &out, std::string *content = nullptr)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return osErrorText(errno);
    Sha256 hash;
    std::vector<char> buffer(64 * 1024);
    out.bytes = 0;
    for (;;) {
        const ssize_t n = ::read(fd, buffer.data(), buffer.size());
        if (n < 0) {
            if (errno == EINTR)
                continue;
            const int err = errno;
            ::close(fd);
            return osErrorText(err);
        }
        if (n == 0)
            break;
        hash.update(buffer.data(), static_cast<std::size_t>(n));
        if (content)
            content->append(buffer.data(), static_cast<std::size_t>(n));
        out.bytes += static_cast<std::uint64_t>(n);
    }
    ::close(fd);
    out.sha256 = Sha256::toHex(hash.finish());
    return {};
}

bool isHexDigest(const std::string &s)
{
    return s.size() == 64 && std::all_of(s.begin(), s.end(), [](char c) {
               return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
           });
}

bool equalIgnoreAsciiCase(const std::string &a, const std::string &b)
{
    auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
    return a.size() == b.size()
           && std::equal(a.begin(), a.end(), b.begin(), [&](char x, char y) { return lower(x) == lower(y); });
}

/// upstream's collect_bundle_files: depth first, entries by name; relative paths of the
/// regular files; a symlink or special file anywhere is an error.
std::string collectFiles(const std::string &root, const std::string &directory, const std::string &relativeDir,
                         std::vector<std::string> &files)
{
    DIR *dir = ::opendir(directory.c_str());
    if (!dir)
        return "read bundle directory " + directory + ": " + osErrorText(errno);
    std::vector<std::string> names;
    errno = 0;
    while (const dirent *entry = ::readdir(dir)) {
        const std::string name = entry->d_name;
        if (name != "." && name != "..")
            names.push_back(name);
        errno = 0;
    }
    const int readError = errno;
    ::closedir(dir);
    if (readError)
        return osErrorText(readError);
    std::sort(names.begin(), names.end()); // file names, byte-wise (OsStr order)
    for (const std::string &name : names) {
        const std::string path = joinBundlePath(directory, name);
        const std::string relative = relativeDir.empty() ? name : relativeDir + "/" + name;
        struct stat st {};
        if (::lstat(path.c_str(), &st) != 0)
            return osErrorText(errno);
        if (S_ISLNK(st.st_mode))
            return "symbolic links are not allowed in bundles: " + path;
        if (S_ISDIR(st.st_mode)) {
            if (std::string error = collectFiles(root, path, relative, files); !error.empty())
                return error;
        } else if (S_ISREG(st.st_mode)) {
            files.push_back(relative);
        } else {
            return "special files are not allowed in bundles: " + path;
        }
    }
    return {};
}

} // namespace

std::string joinBundlePath(const std::string &root, const std::string &relative)
{
    if (root.empty())
        return relative;
    if (root.back() == '/')
        return root + relative;
    return root + "/" + relative;
}

bool isSafeBundlePath(const std::string &path)
{
    if (path.empty() || path.find('\\') != std::string::npos || path.front() == '/')
        return false;
    const auto parts = components(path);
    if (parts.empty())
        return false;
    return std::none_of(parts.begin(), parts.end(), [](const std::string &p) { return p == "." || p == ".."; });
}

BundleCheck verifyBundle(const std::string &root)
{
    BundleCheck check;
    auto fail = [&](std::string message) {
        check.error = std::move(message);
        return check;
    };
    struct stat rootStat {};
    if (::stat(root.c_str(), &rootStat) != 0 || !S_ISDIR(rootStat.st_mode))
        return fail("bundle directory does not exist: " + root);

    const std::string manifestPath = joinBundlePath(root, "bundle.json");
    struct stat manifestStat {};
    if (::lstat(manifestPath.c_str(), &manifestStat) != 0)
        return fail("read bundle manifest " + manifestPath + ": " + osErrorText(errno));
    if (!S_ISREG(manifestStat.st_mode))
        return fail("bundle manifest is not a regular file: " + manifestPath);
    std::string manifestBytes;
    FileDigest manifestDigest;
    if (std::string error = describeFile(manifestPath, manifestDigest, &manifestBytes); !error.empty())
        return fail("read bundle manifest " + manifestPath + ": " + error);
    std::string parseError;
    std::optional<BundleManifest> manifest = BundleManifest::parse(manifestBytes, parseError);
    if (!manifest)
        return fail("parse bundle manifest " + manifestPath + ": " + parseError);
    if (manifest->schema != kBundleSchema)
        return fail("unsupported bundle schema " + rustDebugString(manifest->schema) + "; expected "
                    + rustDebugString(kBundleSchema));

    std::map<std::string, const BundleFile *> declared; // byte-wise, as upstream's BTreeMap<&str>
    for (const BundleFile &file : manifest->files) {
        if (!isSafeBundlePath(file.path) || file.path == "bundle.json")
            return fail("unsafe or reserved bundle path " + rustDebugString(file.path));
        if (!declared.emplace(file.path, &file).second)
            return fail("bundle manifest declares " + rustDebugString(file.path) + " more than once");
        if (!isHexDigest(file.sha256))
            return fail("bundle manifest has an invalid SHA-256 for " + rustDebugString(file.path));
    }

    std::vector<std::string> observed;
    if (std::string error = collectFiles(root, root, {}, observed); !error.empty())
        return fail(error);
    std::stable_sort(observed.begin(), observed.end(), pathLess);
    std::size_t observedOthers = 0;
    for (const std::string &relative : observed) {
        if (relative == "bundle.json")
            continue;
        ++observedOthers;
        if (!declared.contains(relative))
            return fail("undeclared regular file in bundle: " + relative);
    }
    if (observedOthers != declared.size()) {
        std::string missing = "<unknown>";
        for (const auto &entry : declared) {
            // A named reference, not a structured binding: clang 14 cannot capture those.
            const std::string &path = entry.first;
            if (std::none_of(observed.begin(), observed.end(),
                             [&](const std::string &o) { return samePath(o, path); })) {
                missing = path;
                break;
            }
        }
        return fail("declared bundle file is missing: " + missing);
    }

    std::uint64_t bytesVerified = 0;
    for (const auto &[relative, expected] : declared) {
        const std::string path = joinBundlePath(root, relative);
        struct stat st {};
        if (::lstat(path.c_str(), &st) != 0)
            return fail("read declared bundle file " + path + ": " + osErrorText(errno));
        if (!S_ISREG(st.st_mode))
            return fail("declared bundle path is not a regular file: " + relative);
        FileDigest actual;
        if (std::string error = describeFile(path, actual); !error.empty())
            return fail(error);
        if (actual.bytes != expected->bytes)
            return fail("bundle file " + rustDebugString(relative) + " size mismatch: expected "
                        + std::to_string(expected->bytes) + ", observed " + std::to_string(actual.bytes));
        if (!equalIgnoreAsciiCase(actual.sha256, expected->sha256))
            return fail("bundle file " + rustDebugString(relative) + " SHA-256 mismatch");
        if (actual.bytes > UINT64_MAX - bytesVerified)
            return fail("verified bundle byte count overflowed u64");
        bytesVerified += actual.bytes;
    }

    BundleReceipt receipt;
    receipt.runId = manifest->runId;
    receipt.manifestSha256 = manifestDigest.sha256;
    receipt.filesVerified = declared.size();
    receipt.bytesVerified = bytesVerified;
    receipt.manifest = std::move(*manifest);
    check.receipt = std::move(receipt);
    return check;
}

std::string verifyConsumedBundleFiles(const std::string &root, const BundleReceipt &receipt,
                                      const std::vector<std::string> &files)
{
    const std::string manifestPath = joinBundlePath(root, "bundle.json");
    struct stat manifestStat {};
    if (::lstat(manifestPath.c_str(), &manifestStat) != 0)
        return "read bundle manifest " + manifestPath + ": " + osErrorText(errno);
    if (!S_ISREG(manifestStat.st_mode))
        return "bundle manifest is not a regular file: " + manifestPath;
    FileDigest manifestDigest;
    if (std::string error = describeFile(manifestPath, manifestDigest); !error.empty())
        return "read bundle manifest " + manifestPath + ": " + error;
    if (manifestDigest.sha256 != receipt.manifestSha256)
        return "bundle manifest changed after verification: " + manifestPath;
    for (const std::string &relative : files) {
        const auto it = std::find_if(receipt.manifest.files.begin(), receipt.manifest.files.end(),
                                     [&](const BundleFile &f) { return f.path == relative; });
        if (it == receipt.manifest.files.end())
            return "consumed bundle file is not declared: " + relative;
        const std::string path = joinBundlePath(root, relative);
        struct stat st {};
        if (::lstat(path.c_str(), &st) != 0)
            return "read declared bundle file " + path + ": " + osErrorText(errno);
        if (!S_ISREG(st.st_mode))
            return "declared bundle path is not a regular file: " + relative;
        FileDigest actual;
        if (std::string error = describeFile(path, actual); !error.empty())
            return error;
        if (actual.bytes != it->bytes)
            return "bundle file " + rustDebugString(relative) + " size mismatch: expected " + std::to_string(it->bytes)
                   + ", observed " + std::to_string(actual.bytes);
        if (!equalIgnoreAsciiCase(actual.sha256, it->sha256))
            return "bundle file " + rustDebugString(relative) + " SHA-256 mismatch";
    }
    return {};
}

} // namespace TraceInspector
