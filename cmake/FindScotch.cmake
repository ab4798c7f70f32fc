# Finds libscotch (sequential, 32-bit SCOTCH_Num as Debian ships it).
# Debian provides neither a pkg-config file nor a CMake config for Scotch.
# Defines the imported target Scotch::Scotch (scotch + scotcherr + libm).
find_path(Scotch_INCLUDE_DIR scotch.h PATH_SUFFIXES scotch)
find_library(Scotch_LIBRARY scotch)
find_library(Scotch_ERR_LIBRARY scotcherr)

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(Scotch
    REQUIRED_VARS Scotch_LIBRARY Scotch_ERR_LIBRARY Scotch_INCLUDE_DIR)

if(Scotch_FOUND AND NOT TARGET Scotch::Scotch)
    add_library(Scotch::Scotch INTERFACE IMPORTED)
    set_target_properties(Scotch::Scotch PROPERTIES
        INTERFACE_INCLUDE_DIRECTORIES "${Scotch_INCLUDE_DIR}"
        INTERFACE_LINK_LIBRARIES "${Scotch_LIBRARY};${Scotch_ERR_LIBRARY};m")
endif()
mark_as_advanced(Scotch_INCLUDE_DIR Scotch_LIBRARY Scotch_ERR_LIBRARY)
