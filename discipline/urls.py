app_name = "discipline"
urlpatterns: list = []
