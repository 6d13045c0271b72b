assert return_value == (text == text[::-1])
