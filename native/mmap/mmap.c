#include <stdio.h>
/*
 * A read-only memory map of a file as an ArrayBuffer: `map(path)` maps the whole file and
 * returns an ArrayBuffer over it (unmapped when the ArrayBuffer is collected); `release(buffer)`
 * drops its resident pages. The search index
 * snapshot is opened this way, so that its typed arrays are views over the page cache instead
 * of copies in the heap. Node has no mmap of its own.
 */
#define NAPI_VERSION 8
#include <node_api.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static void unmap(napi_env env, void *data, void *hint) {
  (void)env;
  munmap(data, (size_t)(uintptr_t)hint);
}

static napi_value throw_errno(napi_env env, const char *what, const char *path, int err) {
  char message[1200];
  snprintf(message, sizeof message, "%s %s: %s", what, path, strerror(err));
  napi_throw_error(env, err == ENOENT ? "ENOENT" : err == EISDIR ? "EISDIR" : "EMMAP", message);
  return NULL;
}

static napi_value map_file(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 1) {
    napi_throw_type_error(env, NULL, "map(path): path is required");
    return NULL;
  }
  char path[1024];
  size_t length = 0;
  if (napi_get_value_string_utf8(env, argv[0], path, sizeof path, &length) != napi_ok || length >= sizeof path - 1) {
    napi_throw_type_error(env, NULL, "map(path): path must be a string shorter than 1023 bytes");
    return NULL;
  }
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return throw_errno(env, "cannot open", path, errno);
  struct stat st;
  if (fstat(fd, &st) != 0) {
    int err = errno;
    close(fd);
    return throw_errno(env, "cannot stat", path, err);
  }
  if (S_ISDIR(st.st_mode)) {
    close(fd);
    return throw_errno(env, "cannot map", path, EISDIR);
  }
  size_t size = (size_t)st.st_size;
  void *data = NULL;
  if (size > 0) {
    data = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
    if (data == MAP_FAILED) {
      int err = errno;
      close(fd);
      return throw_errno(env, "cannot map", path, err);
    }
  }
  close(fd);
  napi_value buffer;
  if (size == 0) {
    napi_create_arraybuffer(env, 0, NULL, &buffer);
    return buffer;
  }
  if (napi_create_external_arraybuffer(env, data, size, unmap, (void *)(uintptr_t)size, &buffer) != napi_ok) {
    munmap(data, size);
    napi_throw_error(env, "EMMAP", "cannot wrap the mapping in an ArrayBuffer");
    return NULL;
  }
  return buffer;
}

/*
 * `release(buffer)`: drops the resident pages of a mapping made by `map` (they are read again
 * from the page cache if touched), so that a merge streaming through large inputs does not
 * keep them all counted in its memory.
 */
static napi_value release_pages(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  void *data = NULL;
  size_t length = 0;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 1 ||
      napi_get_arraybuffer_info(env, argv[0], &data, &length) != napi_ok) {
    napi_throw_type_error(env, NULL, "release(buffer): an ArrayBuffer from map() is required");
    return NULL;
  }
  if (data != NULL && length > 0) madvise(data, length, MADV_DONTNEED);
  return NULL;
}

static napi_value init(napi_env env, napi_value exports) {
  napi_value fn;
  napi_create_function(env, "map", NAPI_AUTO_LENGTH, map_file, NULL, &fn);
  napi_set_named_property(env, exports, "map", fn);
  napi_create_function(env, "release", NAPI_AUTO_LENGTH, release_pages, NULL, &fn);
  napi_set_named_property(env, exports, "release", fn);
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
