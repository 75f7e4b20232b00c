#include <fontconfig/fontconfig.h>
/* FontCatalog calls FcNameParse, FcConfigSubstitute, FcDefaultSubstitute, FcFontMatch, FcFontSort, FcLangSetAdd
   and FcCharSetHasChar and reads the faces' family, PostScript name, file, index, charset and scalable, outline
   and color flags as fontconfig 2 (Debian 12: 2.14) defines them: a fontconfig whose API may differ is refused
   when photobook is built, not found out as a book set in another font. */
#if !defined(FC_MAJOR) || FC_MAJOR != 2
#error "photobook's FontCatalog module is checked against fontconfig 2 (Debian 12): check it against this fontconfig"
#endif
