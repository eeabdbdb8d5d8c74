# SPDX-License-Identifier: MIT
# Run-metadata validity, health analysis and their Rust-compatible text helpers.
target_sources(tinspect_core PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/rustformat.h
    ${CMAKE_CURRENT_LIST_DIR}/rustformat.cpp
    ${CMAKE_CURRENT_LIST_DIR}/sha256.h
    ${CMAKE_CURRENT_LIST_DIR}/sha256.cpp
    ${CMAKE_CURRENT_LIST_DIR}/gradientmanifest.h
    ${CMAKE_CURRENT_LIST_DIR}/gradientmanifest.cpp
    ${CMAKE_CURRENT_LIST_DIR}/metavalidation.h
    ${CMAKE_CURRENT_LIST_DIR}/metavalidation.cpp
    ${CMAKE_CURRENT_LIST_DIR}/health.h
    ${CMAKE_CURRENT_LIST_DIR}/healthcontext.h
    ${CMAKE_CURRENT_LIST_DIR}/health.cpp
    ${CMAKE_CURRENT_LIST_DIR}/healthgradients.cpp
    ${CMAKE_CURRENT_LIST_DIR}/healthlabels.cpp
)
