"""A migration operation that makes a table append-only on PostgreSQL: a trigger refuses
UPDATE and DELETE (game events, dispute notes). Other databases get nothing (make run's SQLite)."""

from django.db import migrations


def append_only(table: str, trigger: str) -> migrations.RunPython:
    create = f"""
CREATE OR REPLACE FUNCTION {trigger}() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION '{table} is append-only: % refused', TG_OP
        USING ERRCODE = 'insufficient_privilege';
END
$$ LANGUAGE plpgsql;
CREATE TRIGGER {trigger} BEFORE UPDATE OR DELETE ON {table}
    FOR EACH ROW EXECUTE FUNCTION {trigger}();
"""
    drop = f"DROP TRIGGER IF EXISTS {trigger} ON {table}; DROP FUNCTION IF EXISTS {trigger}();"

    def run(sql: str):
        def operation(apps, schema_editor):
            if schema_editor.connection.vendor == "postgresql":
                schema_editor.execute(sql, params=None)  # params=None: '%' is not a placeholder

        return operation

    return migrations.RunPython(run(create), run(drop))
