# function-lengths.awk FILE...: print "LINES FILE:LINE NAME" for every
# top-level function body in C/CUDA sources (brace depth from column 0 of
# the opening line), so that tests can hold functions to a length.
# String and comment contents are not parsed: braces inside them are rare
# in this course's sources and would only make a function look longer.
FNR == 1 { depth = 0; start = 0 }
{
    line = $0
    sub(/\/\/.*$/, "", line)
    opens = gsub(/\{/, "{", line)
    closes = gsub(/\}/, "}", line)
    if (depth == 0 && opens > 0 && prev ~ /\)[ \t]*$/ && $0 ~ /^\{/) {
        start = FNR; name = prev
    }
    depth += opens - closes
    if (start && depth == 0) {
        printf "%d %s:%d %s\n", FNR - start + 1, FILENAME, start, name
        start = 0
    }
    if ($0 !~ /^[ \t]*$/) prev = $0
}
