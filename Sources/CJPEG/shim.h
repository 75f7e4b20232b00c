#include <stdio.h>   /* jpeglib.h uses FILE and size_t without including their headers */
#include <jpeglib.h>
