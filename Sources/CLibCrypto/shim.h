// OpenSSL's libcrypto (libssl-dev): its message digests, for SHA-256 (TegulaComposite's
// ContentHash). libgdal already loads libcrypto.so.3, so this adds no library to the process.
#include <openssl/evp.h>
