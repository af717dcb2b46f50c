from discipline.protest_forms import FeeForm


def test_a_field_with_an_error_is_marked_invalid_and_described_by_its_error():
    form = FeeForm(data={"amount_0": "200", "amount_1": "USD", "method": "nonsense"})
    assert not form.is_valid()
    html = str(form["method"].as_field_group())
    assert 'aria-invalid="true"' in html
    assert 'aria-describedby="id_method_error"' in html
    assert 'id="id_method_error"' in html


def test_the_money_fields_parts_have_accessible_names():
    html = str(FeeForm()["amount"])
    assert 'aria-label="Amount received"' in html
    assert 'aria-label="Currency of the amount received"' in html
