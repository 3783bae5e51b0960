# embed_sql.cmake — write IN (an SQL file) as a C string `rb_queue_schema_sql` into OUT.
file(READ ${IN} sql)
string(REPLACE "\\" "\\\\" sql "${sql}")
string(REPLACE "\"" "\\\"" sql "${sql}")
string(REPLACE "\n" "\\n\"\n\"" sql "${sql}")
file(WRITE ${OUT} "/* generated from queue/schema.sql by embed_sql.cmake */\nconst char rb_queue_schema_sql[] =\n\"${sql}\";\n")
