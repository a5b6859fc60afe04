"""Markdown: parsing, chunking, the Retain fact grammar and frontmatter."""

# Bump when chunk boundaries, texts or what facts state change: the index's settings fingerprint
# includes it (here, not in parse.py, so that checking the fingerprint parses nothing).
PARSER_VERSION = 13  # 6: binary files skipped; 7: lines and files cut to a size; 8: struck (invalid) facts;
#                      9: entry_start, new date forms; 10: reflect's markers and init's template text left out;
#                      11: @mentions inside CJK text ("在@Fernwerk工作");
#                      12: the days a line names, time words of the model's languages (issue 37);
#                      13: "Monday the 23rd" is the 23rd, a weekday beside another date gives way
