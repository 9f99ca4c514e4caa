"""Migration operations that make a table append-only on PostgreSQL (game events, dispute
notes, chat messages and their hidings, the signatures of games' heads): a row trigger refuses
UPDATE and DELETE, a statement trigger refuses TRUNCATE (which fires no row trigger). Other
databases get nothing (make run's SQLite).

Triggers bind the tables' owner too, unless the owner switches them off on purpose; the
service itself connects as a role that may only read and append them, and may not switch
anything off (games/management/commands/grant_service_role.py).
"""

from django.db import migrations

# Each append-only table → the trigger (and its function) refusing UPDATE/DELETE, and the
# statement trigger refusing TRUNCATE.
APPEND_ONLY = {
    "games_gameevent": ("games_event_append_only", "games_event_no_truncate"),
    "replays_disputenote": ("replays_note_append_only", "replays_note_no_truncate"),
    "games_chatmessage": ("games_chat_append_only", "games_chat_no_truncate"),
    "games_chathiding": ("games_chat_hiding_append_only", "games_chat_hiding_no_truncate"),
    "games_headsignature": ("games_head_signature_append_only", "games_head_signature_no_truncate"),
    "games_tournamentevent": (
        "games_tournament_event_append_only",
        "games_tournament_event_no_truncate",
    ),
}


def _on_postgresql(sql: str):
    def operation(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(sql, params=None)  # params=None: '%' is not a placeholder

    return operation


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
    return migrations.RunPython(_on_postgresql(create), _on_postgresql(drop))


def refuse_truncate(table: str) -> migrations.RunPython:
    """TRUNCATE (also by CASCADE from a parent table) is refused by the table's append-only
    function, which names the operation."""
    function, trigger = APPEND_ONLY[table]
    create = f"""
CREATE TRIGGER {trigger} BEFORE TRUNCATE ON {table}
    FOR EACH STATEMENT EXECUTE FUNCTION {function}();
"""
    drop = f"DROP TRIGGER IF EXISTS {trigger} ON {table};"
    return migrations.RunPython(_on_postgresql(create), _on_postgresql(drop))
