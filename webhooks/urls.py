from django.urls import path

from . import views

app_name = "webhooks"

urlpatterns = [
    path("", views.endpoint_list, name="endpoints"),
    path("<int:endpoint_id>/delete/", views.endpoint_delete, name="endpoint-delete"),
    path("deliveries/", views.delivery_list, name="deliveries"),
    path("deliveries/<int:delivery_id>/resend/", views.delivery_resend, name="delivery-resend"),
]
