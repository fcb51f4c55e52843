"""One rule for what a table's token may do (``tournaments.policies.sheet_refusal``),
asked by the API's authentication, the sheet services and the tablet's pages alike: once
the round is closed (or reopened for staff corrections) the token reads nothing, the
sheet list included."""

import pytest

from tournaments.models import Round, Table
from tournaments.policies import ROUND_CLOSED, SUBMITTED, sheet_refusal

pytestmark = pytest.mark.django_db


def close_round(table_id: int, **flags) -> Table:
    table = Table.objects.select_related("round__tournament").get(pk=table_id)
    Round.objects.filter(pk=table.round_id).update(**flags)
    return Table.objects.select_related("round__tournament").get(pk=table_id)


@pytest.mark.parametrize("flags", [{"closed": True}, {"reopened": True}])
def test_a_refused_token_reads_neither_the_page_nor_the_list_nor_the_api(
        client, table, table_client, flags):
    token = table["entry_token"]
    assert client.get(f"/t/{token}/sheet/").status_code == 200
    row = close_round(table["id"], **flags)
    assert sheet_refusal(row, by_table=True, write=False) == ROUND_CLOSED
    assert client.get(f"/t/{token}/").status_code == 410
    assert client.get(f"/t/{token}/sheet/").status_code == 410
    assert table_client.get(f"/api/v1/tables/{table['id']}/").status_code == 401


def test_staff_write_a_reopened_round_and_correct_a_submitted_sheet(table):
    row = close_round(table["id"], reopened=True)
    assert sheet_refusal(row, by_table=False, write=True) is None
    row.submitted = True
    assert sheet_refusal(row, by_table=False, write=True) == SUBMITTED
    assert sheet_refusal(row, by_table=False, write=True, after_submit=True) is None
    assert sheet_refusal(row, by_table=True, write=True) == ROUND_CLOSED


def test_the_sheet_list_answers_304_by_the_shared_conditional_get(client, table):
    path = f"/t/{table['entry_token']}/sheet/"
    first = client.get(path)
    tag = first["ETag"]
    assert client.get(path, HTTP_IF_NONE_MATCH=f'"x", W/{tag}').status_code == 304
    assert client.get(path, HTTP_IF_NONE_MATCH="*").status_code == 304
    assert client.get(path, HTTP_IF_NONE_MATCH='"other"').status_code == 200
