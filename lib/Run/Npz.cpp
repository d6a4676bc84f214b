//===- Npz.cpp - Arrays in numpy's .npy and .npz files --------------------===//
//
// A .npz is a zip archive of .npy files (numpy.savez stores them,
// savez_compressed deflates them); libzip reads and writes the container,
// the .npy codec (frost/Tensor/Npy.h) each entry. Files are mapped as
// every input is (regular files only, noted as the run's inputs).
//
//===----------------------------------------------------------------------===//
#include "frost/Run/Run.h"

#include "frost/Support/File.h"
#include "frost/Tensor/Npy.h"

#include "absl/strings/str_cat.h"

#include <zip.h>

#include <memory>
#include <new>

namespace frost::run {

namespace {

struct ArchiveCloser {
  void operator()(zip_t *Z) const { zip_discard(Z); }
};
using Archive = std::unique_ptr<zip_t, ArchiveCloser>;
struct FileCloser {
  void operator()(zip_file_t *F) const { zip_fclose(F); }
};
struct SourceFreer {
  void operator()(zip_source_t *S) const { zip_source_free(S); }
};
using Source = std::unique_ptr<zip_source_t, SourceFreer>;

std::string zipErrorText(zip_error_t *E) {
  std::string Text = zip_error_strerror(E);
  zip_error_fini(E);
  return Text;
}

} // namespace

absl::StatusOr<TensorData> readNpy(Context &Ctx, llvm::StringRef Path) {
  FROST_ASSIGN_OR_RETURN(std::unique_ptr<MappedFile> File, MappedFile::open(Ctx, Path));
  return decodeNpy(File->bytes(), Path);
}

absl::StatusOr<NamedTensors> readNpz(Context &Ctx, llvm::StringRef Path, uint64_t MaxBytes) {
  FROST_ASSIGN_OR_RETURN(std::unique_ptr<MappedFile> File, MappedFile::open(Ctx, Path));
  llvm::StringRef Bytes = File->bytes();
  zip_error_t Error;
  zip_error_init(&Error);
  Source In(zip_source_buffer_create(Bytes.data(), Bytes.size(), /*freep=*/0, &Error));
  if (!In)
    return absl::ResourceExhaustedError(absl::StrCat(Path.str(), ": ", zipErrorText(&Error)));
  Archive Zip(zip_open_from_source(In.get(), ZIP_RDONLY | ZIP_CHECKCONS, &Error));
  if (!Zip)
    return absl::InvalidArgumentError(
        absl::StrCat(Path.str(), ": not a .npz file (a zip archive): ", zipErrorText(&Error)));
  zip_error_fini(&Error);
  In.release(); // the archive owns it now
  NamedTensors Arrays;
  zip_int64_t Count = zip_get_num_entries(Zip.get(), 0);
  for (zip_int64_t I = 0; I < Count; ++I) {
    zip_stat_t Stat;
    if (zip_stat_index(Zip.get(), I, 0, &Stat) != 0)
      return absl::InvalidArgumentError(absl::StrCat(Path.str(), ": entry ", I, ": ",
                                                     zip_strerror(Zip.get())));
    llvm::StringRef Entry(Stat.name);
    std::string Where = absl::StrCat(Path.str(), ": entry '", Entry.str(), "'");
    if (Entry.ends_with("/"))
      continue; // a directory
    if (!Entry.ends_with(".npy"))
      return absl::InvalidArgumentError(
          absl::StrCat(Where, " is not a .npy file (numpy.savez names them NAME.npy)"));
    // Read as the bytes arrive, never trusting the sizes the archive
    // claims, up to what one tensor may hold (a deflated bomb stops there).
    std::unique_ptr<zip_file_t, FileCloser> F(zip_fopen_index(Zip.get(), I, 0));
    if (!F)
      return absl::InvalidArgumentError(absl::StrCat(Where, ": ", zip_strerror(Zip.get())));
    std::string Data;
    char Chunk[1 << 16];
    for (;;) {
      zip_int64_t Read = zip_fread(F.get(), Chunk, sizeof Chunk);
      if (Read < 0)
        return absl::InvalidArgumentError(absl::StrCat(Where, ": ", zip_file_strerror(F.get())));
      if (Read == 0)
        break;
      if (Data.size() + Read > MaxBytes)
        return absl::ResourceExhaustedError(absl::StrCat(
            Where, " inflates to more than ", formatBytes(MaxBytes),
            ", the largest tensor a run may hold (--eval-max-bytes)"));
      try {
        Data.append(Chunk, static_cast<size_t>(Read));
      } catch (const std::bad_alloc &) {
        return absl::ResourceExhaustedError(
            absl::StrCat(Where, ": no memory for its ", formatBytes(Data.size() + Read)));
      }
    }
    FROST_ASSIGN_OR_RETURN(TensorData T, decodeNpy(Data, Where));
    std::string Name = Entry.drop_back(4).str();
    for (const auto &[Seen, Unused] : Arrays)
      if (Seen == Name)
        return absl::InvalidArgumentError(absl::StrCat(Where, " is there twice"));
    Arrays.emplace_back(std::move(Name), std::move(T));
  }
  return Arrays;
}

absl::StatusOr<std::string> encodeNpz(const NamedTensors &Arrays) {
  zip_error_t Error;
  zip_error_init(&Error);
  Source Out(zip_source_buffer_create(nullptr, 0, 0, &Error));
  if (!Out)
    return absl::ResourceExhaustedError(zipErrorText(&Error));
  Archive Zip(zip_open_from_source(Out.get(), ZIP_TRUNCATE, &Error));
  if (!Zip)
    return absl::InternalError(zipErrorText(&Error));
  zip_error_fini(&Error);
  zip_source_keep(Out.get()); // read back after the archive closes
  // The entries' bytes must live until zip_close writes them.
  std::vector<std::string> Entries;
  Entries.reserve(Arrays.size());
  for (const auto &[Name, T] : Arrays) {
    FROST_ASSIGN_OR_RETURN(std::string Npy, encodeNpy(T, absl::StrCat("output '", Name, "'")));
    Entries.push_back(std::move(Npy));
    zip_source_t *Entry = zip_source_buffer(Zip.get(), Entries.back().data(),
                                            Entries.back().size(), 0);
    std::string EntryName = Name + ".npy";
    zip_int64_t Index = Entry ? zip_file_add(Zip.get(), EntryName.c_str(), Entry,
                                             ZIP_FL_ENC_UTF_8)
                              : -1;
    if (Index < 0) {
      if (Entry)
        zip_source_free(Entry);
      return absl::InternalError(
          absl::StrCat("output '", Name, "': ", zip_strerror(Zip.get())));
    }
    // numpy.savez stores; a fixed date (1980-01-01, zip's first) keeps the
    // bytes the same from run to run.
    if (zip_set_file_compression(Zip.get(), Index, ZIP_CM_STORE, 0) != 0 ||
        zip_file_set_mtime(Zip.get(), Index, 315532800 + 12 * 3600, 0) != 0)
      return absl::InternalError(absl::StrCat("output '", Name, "': ", zip_strerror(Zip.get())));
  }
  if (zip_close(Zip.get()) != 0)
    return absl::InternalError(absl::StrCat("writing the .npz: ", zip_strerror(Zip.get())));
  (void)Zip.release(); // zip_close freed it
  zip_stat_t Stat;
  if (zip_source_stat(Out.get(), &Stat) != 0 || zip_source_open(Out.get()) != 0)
    return absl::InternalError("writing the .npz: its buffer cannot be read back");
  std::string Bytes(Stat.size, '\0');
  zip_int64_t Read = zip_source_read(Out.get(), Bytes.data(), Bytes.size());
  zip_source_close(Out.get());
  if (Read < 0 || static_cast<zip_uint64_t>(Read) != Stat.size)
    return absl::InternalError("writing the .npz: its buffer cannot be read back");
  return Bytes;
}

} // namespace frost::run
